/** The state types the faces see through the engine: they hold a store and read works, never open files. */
export type { Read, StateProblem, Store } from "../state/store.js";
export type { Work, WorkSession, WorkStatus, WorksFile, WorkVerification } from "../state/works.js";
