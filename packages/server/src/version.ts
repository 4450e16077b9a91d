/** The server's version string, shown to signed-in users and on status pages. */
export const SERVER_VERSION = "0.1.0";
