// Generated from package.json by scripts/generate-schema-modules.mjs; do not edit.
export const VERSION = "0.1.0";
