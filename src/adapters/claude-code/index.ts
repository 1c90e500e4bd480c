/** The Claude Code adapter's public surface. */

export { answerFor, type HookAnswer } from "../shared/hook-answer.js";
export { HOOK_MARKER, type HookProgram } from "../shared/hook-form.js";
export type { InstallReport } from "../shared/install-report.js";
export type { HookStreams } from "../types.js";
export { claudeCodeAdapter } from "./adapter.js";
export { hookCommand, REGISTRATIONS, runClaudeCodeHook } from "./dialect.js";
export { type ClaudeCodeFinding, checkClaudeCodeHooks, claudeCodeDoctorCheck } from "./doctor.js";
export {
	HARNESS,
	HOOK_EVENTS,
	type HookDeps,
	type HookEvent,
	type HookInput,
	handleHook,
	parseHookInput,
} from "./events.js";
export {
	hooksObject,
	type InstallScope,
	installClaudeCode,
	settingsFile,
	uninstallClaudeCode,
	withOurHooks,
	withoutOurHooks,
} from "./install.js";
export { analyseTurn, readTurn, type TurnReading } from "./transcript.js";
