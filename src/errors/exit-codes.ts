// Exit codes shared by every command, as documented in the README; each error code in the registry names one.
export const OK_EXIT_CODE = 0;
/** `check` found problems; `run` failed after starting. */
export const FAILURE_EXIT_CODE = 1;
/** A usage error or a wrong setting, detected before anything started. */
export const USAGE_EXIT_CODE = 2;
