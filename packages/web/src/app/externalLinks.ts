/** The help pages, served by the server. */
export const HELP_URL = "/docs/index.html";
/** Where the update-available link leads: the upgrade notes in the docs. */
export const UPDATE_INFO_URL = "/docs/index.html#upgrading";
