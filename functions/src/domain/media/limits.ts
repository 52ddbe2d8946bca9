/** The product's limits for media sends, shared by the multipart parser, direct uploads and the web. */

/** Per file. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** Per send. */
export const MAX_FILES = 10;
