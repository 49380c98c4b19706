/** Exit codes: 0 success, 1 a server or tool call failed, 2 bad usage or config. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
