/**
 * The subcommands of `boulder`, as a table: adding one is one line here and
 * one file that exports its `register`. `install`, `uninstall`, `hook` and
 * `doctor` loop over the adapter registry the CLI was given.
 */
import type { Command } from "commander";
import type { Cli } from "../context.js";
import { registerConfig } from "./config.js";
import { registerDoctor } from "./doctor.js";
import { registerHook } from "./hook.js";
import { registerInstall, registerUninstall } from "./install.js";
import { registerLog } from "./log.js";
import { registerPlans } from "./plans.js";
import { registerStart } from "./start.js";
import { registerStatus } from "./status.js";
import { registerGo, registerStop } from "./stop-go.js";
import { registerUi } from "./ui.js";
import { registerWhy } from "./why.js";
import { registerAbandon, registerPause, registerResume } from "./work-lifecycle.js";

/** Contract: adds one subcommand to `program`; its action sets `cli.exitCode` or throws. */
export type RegisterCommand = (program: Command, cli: Cli) => void;

export const COMMANDS: readonly RegisterCommand[] = [
	registerStart,
	registerPlans,
	registerStatus,
	registerPause,
	registerResume,
	registerAbandon,
	registerStop,
	registerGo,
	registerWhy,
	registerLog,
	registerUi,
	registerDoctor,
	registerConfig,
	registerInstall,
	registerUninstall,
	registerHook,
];
