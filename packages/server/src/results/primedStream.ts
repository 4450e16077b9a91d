import { Readable } from "node:stream";

/**
 * A readable of the pieces whose first `count` pieces have already been produced (by default
 * two: a download's head, then its first stored rows): a store that fails at once (object storage out of reach) fails here, before the answer's status and headers are
 * sent, so the client gets the error's status and message instead of a cut 200. A failure after
 * the answer has begun cuts the connection short (its end is missing), which clients see as an
 * error, not as a complete file.
 */
export async function primedStream<T extends string | Buffer>(
  pieces: AsyncIterable<T>,
  count = 2,
): Promise<Readable> {
  const iterator = pieces[Symbol.asyncIterator]();
  const primed: T[] = [];
  let done = false;
  while (primed.length < count && !done) {
    const next = await iterator.next();
    if (next.done) done = true;
    else primed.push(next.value);
  }
  async function* rest(): AsyncGenerator<T> {
    yield* primed;
    if (done) return;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      yield next.value;
    }
  }
  const stream = Readable.from(rest());
  // A client that goes away stops the pieces (a query's rows, a store's reads) too.
  stream.once("close", () => void iterator.return?.(undefined)?.catch(() => undefined));
  return stream;
}
