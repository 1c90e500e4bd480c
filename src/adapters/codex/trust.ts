/**
 * Whether Codex trusts boulder's hooks. Codex runs a hook from a user or
 * project hooks file only when the user trusted it (in its /hooks review),
 * which Codex records in `$CODEX_HOME/config.toml`:
 *
 *     [hooks.state."<absolute hooks.json>:<event_in_snake_case>:<group>:<handler>"]
 *     trusted_hash = "sha256:<hex>"
 *
 * The hash is the SHA-256 of the hook's identity as compact JSON with its
 * keys sorted: `{event_name, matcher?, hooks: [{type, command, timeout,
 * async}]}`. A hook whose identity changed since (a new boulder, another
 * form) is "modified": Codex skips it until it is trusted again. Checked
 * against Codex 0.171: hooks with these records run under `codex exec`
 * without `--dangerously-bypass-hook-trust`; with any other key they do not.
 *
 * The config is read for these tables only, line by line (no TOML parser):
 * a record Codex wrote in another TOML spelling is not seen, and boulder then
 * says "not trusted" where Codex might run the hook.
 */
import { createHash } from "node:crypto";
import { isRecord } from "../shared/hook-input.js";

export type TrustStatus = "trusted" | "modified" | "untrusted" | "disabled";

export interface HookState {
	trustedHash?: string;
	enabled?: boolean;
}

/** `PostToolUse` → `post_tool_use`, as Codex names events in trust keys. */
export function eventLabel(event: string): string {
	return event.replace(/(?<=[a-z])(?=[A-Z])/g, "_").toLowerCase();
}

export function hookTrustKey(file: string, event: string, group: number, handler: number): string {
	return `${file}:${eventLabel(event)}:${group}:${handler}`;
}

/** The hash Codex records when the user trusts one command handler of a matcher group. */
export function hookTrustHash(event: string, matcher: unknown, handler: Record<string, unknown>): string {
	const normal: Record<string, unknown> = {
		type: "command",
		command: handler.command,
		timeout: typeof handler.timeout === "number" ? Math.max(1, handler.timeout) : 600,
		async: handler.async === true,
	};
	if (typeof handler.statusMessage === "string") normal.statusMessage = handler.statusMessage;
	const identity: Record<string, unknown> = { event_name: eventLabel(event), hooks: [normal] };
	if (typeof matcher === "string") identity.matcher = matcher;
	return `sha256:${createHash("sha256")
		.update(JSON.stringify(sorted(identity)))
		.digest("hex")}`;
}

/** The trust record of every command hook in a hooks file, as Codex would write it (for tests, and to explain). */
export function trustRecords(file: string, hooksFile: unknown): Map<string, string> {
	const records = new Map<string, string>();
	forEachHandler(hooksFile, (event, matcher, handler, group, index) => {
		records.set(hookTrustKey(file, event, group, index), hookTrustHash(event, matcher, handler));
	});
	return records;
}

/** What Codex thinks of each handler `pick` selects in a hooks file, by event. */
export function trustOf(
	file: string,
	hooksFile: unknown,
	states: ReadonlyMap<string, HookState>,
	pick: (handler: Record<string, unknown>) => boolean,
): { event: string; status: TrustStatus }[] {
	const found: { event: string; status: TrustStatus }[] = [];
	forEachHandler(hooksFile, (event, matcher, handler, group, index) => {
		if (!pick(handler)) return;
		const state = states.get(hookTrustKey(file, event, group, index));
		let status: TrustStatus = "untrusted";
		if (state?.enabled === false) status = "disabled";
		else if (state?.trustedHash !== undefined) {
			status = state.trustedHash === hookTrustHash(event, matcher, handler) ? "trusted" : "modified";
		}
		found.push({ event, status });
	});
	return found;
}

/** The `[hooks.state."…"]` tables of a config.toml, by key. */
export function readHookStates(toml: string): Map<string, HookState> {
	const states = new Map<string, HookState>();
	forEachTable(toml, /^\[\s*hooks\.state\.("(?:[^"\\]|\\.)*")\s*\]$/, (key, entries) => {
		const state: HookState = {};
		const hash = entries.get("trusted_hash");
		if (hash !== undefined) {
			const value = stringValue(hash);
			if (value !== null) state.trustedHash = value;
		}
		const enabled = entries.get("enabled");
		if (enabled === "true" || enabled === "false") state.enabled = enabled === "true";
		states.set(key, state);
	});
	return states;
}

/** Whether config.toml marks `folder` as a trusted project (`[projects."<folder>"] trust_level = "trusted"`). */
export function projectTrusted(toml: string, folder: string): boolean {
	let trusted = false;
	forEachTable(toml, /^\[\s*projects\.("(?:[^"\\]|\\.)*")\s*\]$/, (key, entries) => {
		const level = entries.get("trust_level");
		if (key === folder && level !== undefined && stringValue(level) === "trusted") trusted = true;
	});
	return trusted;
}

function forEachHandler(
	hooksFile: unknown,
	visit: (event: string, matcher: unknown, handler: Record<string, unknown>, group: number, index: number) => void,
): void {
	const hooks = isRecord(hooksFile) ? hooksFile.hooks : undefined;
	if (!isRecord(hooks)) return;
	for (const [event, groups] of Object.entries(hooks)) {
		if (!Array.isArray(groups)) continue;
		groups.forEach((group, groupIndex) => {
			if (!isRecord(group) || !Array.isArray(group.hooks)) return;
			group.hooks.forEach((handler, index) => {
				if (isRecord(handler) && handler.type === "command") visit(event, group.matcher, handler, groupIndex, index);
			});
		});
	}
}

/** Calls `visit` with the quoted key of every table whose header matches `header`, and its `key = value` lines. */
function forEachTable(toml: string, header: RegExp, visit: (key: string, entries: Map<string, string>) => void): void {
	let current: { key: string; entries: Map<string, string> } | null = null;
	const flush = () => {
		if (current) visit(current.key, current.entries);
	};
	for (const raw of toml.split(/\r?\n/)) {
		const line = raw.trim();
		if (line.startsWith("[")) {
			flush();
			const match = header.exec(line);
			const key = match?.[1] ? stringValue(match[1]) : null;
			current = key === null ? null : { key, entries: new Map() };
			continue;
		}
		const entry = /^([A-Za-z0-9_-]+)\s*=\s*(.+)$/.exec(line);
		if (current && entry?.[1] && entry[2]) current.entries.set(entry[1], entry[2].trim());
	}
	flush();
}

/** A TOML basic string's value (its escapes are JSON's for what Codex writes), or null. */
function stringValue(text: string): string | null {
	if (!text.startsWith('"')) return null;
	try {
		const value: unknown = JSON.parse(text);
		return typeof value === "string" ? value : null;
	} catch {
		// Not a basic string this reader understands: treated as absent.
		return null;
	}
}

function sorted(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(sorted);
	if (!isRecord(value)) return value;
	return Object.fromEntries(
		Object.keys(value)
			.sort()
			.map((key) => [key, sorted(value[key])]),
	);
}
