/** The Claude Code adapter's public surface. */
export { claudeCodeAdapter } from "./adapter.js";
export { type HookStreams, runClaudeCodeHook } from "./dialect.js";
export { type ClaudeCodeFinding, checkClaudeCodeHooks, claudeCodeDoctorCheck } from "./doctor.js";
export { answerFor, type HookAnswer, type HookDeps, handleHook } from "./events.js";
export { HOOK_MARKER, type HookProgram, hookCommand, REGISTRATIONS } from "./hook-config.js";
export { HARNESS, HOOK_EVENTS, type HookEvent, type HookInput, parseHookInput } from "./hook-input.js";
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
