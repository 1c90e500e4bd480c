/** The Claude Code adapter's public surface. */
export { claudeCodeAdapter } from "./adapter.js";
export {
	HOOK_MARKER,
	type HookProgram,
	type HookStreams,
	hookCommand,
	REGISTRATIONS,
	runClaudeCodeHook,
} from "./dialect.js";
export { type ClaudeCodeFinding, checkClaudeCodeHooks, claudeCodeDoctorCheck } from "./doctor.js";
export {
	answerFor,
	HARNESS,
	HOOK_EVENTS,
	type HookAnswer,
	type HookDeps,
	type HookEvent,
	type HookInput,
	handleHook,
	parseHookInput,
} from "./events.js";
export {
	hooksObject,
	type InstallReport,
	type InstallScope,
	installClaudeCode,
	settingsFile,
	uninstallClaudeCode,
	withOurHooks,
	withoutOurHooks,
} from "./install.js";
export { analyseTurn, readTurn, type TurnReading } from "./transcript.js";
