/**
 * The zod every schema is built with: `zod/mini`, zod's functional API. It
 * validates exactly as the classic API does, but a schema is a plain object
 * rather than one with dozens of methods bound to it, so building one costs a
 * fraction as much. Messages are zod's English ones, as the classic API sets
 * them up by default.
 *
 * Every schema is built on first use (`z.lazy(() => ...)`, whose stand-in
 * defers zod's own lazy schema too: `zod-api.ts`): a hook process loads every
 * module its bundle holds but parses few files, and the ones it reads on
 * every event go through hand checks first (`hand-check.ts`).
 */
import en from "zod/v4/locales/en.js";
import * as z from "./zod-api.js";

z.config(en());

export { z };
