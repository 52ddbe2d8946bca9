/** The app's version, shown in the side menu beside the server's. */
export const APP_VERSION = '6.0.0';
