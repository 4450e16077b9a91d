/**
 * The addresses among `candidates` that can be checked before a run: those that parse as absolute
 * URLs (any scheme: the outbound guard refuses all but http and https). A URL whose host is still
 * a parameter (`https://{{ host }}/…`) does not parse and is left to the run, which fills it in
 * and asks the guard then.
 */
export function absoluteUrls(candidates: readonly string[]): string[] {
  return candidates.filter((candidate) => URL.canParse(candidate));
}
