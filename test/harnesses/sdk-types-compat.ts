/**
 * boulder's own types for the SDK entries (src/sdk/) checked against the
 * pinned SDKs' declarations: what boulder hands an SDK is what it takes, and
 * what the SDK hands boulder has at least the fields boulder reads.
 * Type-checked by test/e2e/pi-api-types.test.ts (with pi-api-compat.ts and
 * the examples of docs/sdk.md), from this folder, where the SDKs are installed.
 */
import type { HookCallbackMatcher, HookEvent, HookInput, Options } from "@anthropic-ai/claude-agent-sdk";
import { Codex } from "@openai/codex-sdk";
import type { Config } from "@opencode-ai/sdk";
import { type BoulderClaudeHooks, boulderHooks, type ClaudeHookInput } from "../../src/sdk/claude.js";
import { type CodexThread, runUntilDone } from "../../src/sdk/codex.js";
import { withBoulder } from "../../src/sdk/opencode.js";

// The Claude Agent SDK: the record is `Options.hooks`; every input the SDK sends is one boulder reads.
const hooks: BoulderClaudeHooks = boulderHooks({ cwd: "." });
export const options: Options = { hooks };
export const merged: Partial<Record<HookEvent, HookCallbackMatcher[]>> = { ...hooks, Notification: [] };
export const input = (sdk: HookInput): ClaudeHookInput => sdk;

// The Codex SDK: a thread is what the driver runs.
const thread = new Codex({ codexPathOverride: "codex" }).startThread({ workingDirectory: "." });
export const driven: CodexThread = thread;
export const run = () => runUntilDone(thread, "Do the plan.", { cwd: "." });

// OpenCode's SDK: `withBoulder` keeps a Config a Config.
const ours: Config = { model: "fake/m" };
export const config: Config = withBoulder(ours);
export const literal: Config = withBoulder({ model: "fake/m", plugin: ["other"] });

/**
 * Factory Droid's SDK (`droid-sdk-typescript` src/hooks.ts) and Tencent
 * CodeBuddy's (`@tencent-ai/agent-sdk` lib/types.d.ts) copied Claude's hook
 * record. Neither is installed here; their shapes, as their declarations
 * give them, take boulder's record unchanged.
 */
type DroidHookEvent =
	| "PreToolUse"
	| "PostToolUse"
	| "Notification"
	| "UserPromptSubmit"
	| "Stop"
	| "SubagentStop"
	| "PreCompact"
	| "SessionStart"
	| "SessionEnd";
interface DroidHookInput {
	hook_event_name: string;
	session_id: string;
	transcript_path: string;
	cwd: string;
	permission_mode: string;
	stop_hook_active?: boolean;
}
interface DroidHookOutput {
	continue?: boolean;
	stopReason?: string;
	suppressOutput?: boolean;
	systemMessage?: string;
	decision?: "block" | "approve";
	reason?: string;
	hookSpecificOutput?: { hookEventName: string; permissionDecision?: string; additionalContext?: string };
}
type DroidHookCallback = (
	input: DroidHookInput,
	toolUseId: string | undefined,
	options: { signal: AbortSignal },
) => DroidHookOutput | Promise<DroidHookOutput>;
interface DroidHookMatcher {
	matcher?: string;
	timeout?: number;
	hooks: DroidHookCallback[];
}
type DroidHooks = Partial<Record<DroidHookEvent, DroidHookMatcher[]>>;
export const droid: DroidHooks = hooks;

type CodeBuddyHookEvent =
	| "PreToolUse"
	| "PostToolUse"
	| "PostToolUseFailure"
	| "Notification"
	| "UserPromptSubmit"
	| "SessionStart"
	| "SessionEnd"
	| "Stop"
	| "SubagentStart"
	| "SubagentStop"
	| "PreCompact"
	| "PermissionRequest";
interface CodeBuddyHookJSONOutput {
	continue?: boolean;
	suppressOutput?: boolean;
	stopReason?: string;
	decision?: "approve" | "block";
	systemMessage?: string;
	reason?: string;
	hookSpecificOutput?: { hookEventName: string; additionalContext?: string; permissionDecision?: string };
}
type CodeBuddyHookCallback = (
	input: { hook_event_name: string; session_id: string; transcript_path: string; cwd: string },
	toolUseID: string | undefined,
	options: { signal: AbortSignal },
) => Promise<CodeBuddyHookJSONOutput>;
interface CodeBuddyHookCallbackMatcher {
	matcher?: string;
	hooks: CodeBuddyHookCallback[];
	timeout?: number;
}
export const codebuddy: Partial<Record<CodeBuddyHookEvent, CodeBuddyHookCallbackMatcher[]>> = hooks;
