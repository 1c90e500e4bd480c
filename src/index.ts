/**
 * boulder's public surface: the pure policy and its models, the engine
 * adapters call, the adapter contract, and the stores. Adapters have their
 * own subpath exports (`boulder-agent/claude-code`, `boulder-agent/opencode`).
 */
export type {
	HarnessAdapter,
	HookEntry,
	HookStreams,
	InstallOutcome,
	InstallPlace,
	InstallScopeInfo,
} from "./adapters/types.js";
export type { Clock } from "./core/clock.js";
export { Config, configJsonSchema, defaultConfig, parseConfig } from "./core/config.js";
export { DecisionRecord } from "./core/decision-record.js";
export { DEFAULT_CONFIG } from "./core/default-config.js";
export { BoulderError, type BoulderErrorCode, isBoulderError } from "./core/errors.js";
export { type ParsedPlan, parsePlan, planView } from "./core/plan-parser.js";
export {
	type Decision,
	decide,
	type IdleInput,
	type ReasonCode,
	type SessionFacts,
	SKIP_REASONS,
	type Verdict,
} from "./core/policy.js";
export { type ScopeIdentity, scopeKey } from "./core/scope-key.js";
export { countTodos, Todo, TodoStatus } from "./core/todos.js";
export { ContinuationState, type Provenance, type TurnOutcome } from "./core/turns.js";
export type { WorkView } from "./core/work-view.js";
export { Engine, type EngineOptions, type IdleResult, type SessionEvent, type SessionRef } from "./engine/engine.js";
export { openWorkspace } from "./engine/open.js";
export { FileStore } from "./state/file-store.js";
export { MemoryStore } from "./state/memory-store.js";
export type { Store } from "./state/store.js";
