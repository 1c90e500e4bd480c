/**
 * Whether Codex trusts boulder's hooks: it runs a hook from a hooks file only
 * once the user trusted it (in /hooks), which it records in
 * `$CODEX_HOME/config.toml` with a hash of the hook (`docs/codex-notes.md`,
 * "Hooks and trust"). The config is read for those tables only, line by line
 * (no TOML parser): a record in another TOML spelling is not seen, and
 * boulder then says "not trusted" where Codex might run the hook.
 */
import { createHash } from "node:crypto";
import { isRecord, textOf } from "../shared/hook-input.js";

export type TrustStatus = "trusted" | "modified" | "untrusted" | "disabled";

interface HookState {
	trustedHash?: string;
	enabled?: boolean;
}

type Handler = { event: string; matcher: unknown; handler: Record<string, unknown>; key: string };

/** `PostToolUse` → `post_tool_use`, as Codex names events in trust keys. */
function eventLabel(event: string): string {
	return event.replace(/(?<=[a-z])(?=[A-Z])/g, "_").toLowerCase();
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
	return `sha256:${createHash("sha256").update(JSON.stringify(identity, sortedKeys)).digest("hex")}`;
}

/** The trust record of every command hook in a hooks file, as Codex would write it (for tests, and to explain). */
export function trustRecords(file: string, hooksFile: unknown): Map<string, string> {
	return new Map(
		handlersOf(file, hooksFile).map((one) => [one.key, hookTrustHash(one.event, one.matcher, one.handler)]),
	);
}

/** What Codex thinks of each handler `pick` selects in a hooks file, by event. */
export function trustOf(
	file: string,
	hooksFile: unknown,
	states: ReadonlyMap<string, HookState>,
	pick: (handler: Record<string, unknown>) => boolean,
): { event: string; status: TrustStatus }[] {
	return handlersOf(file, hooksFile)
		.filter((one) => pick(one.handler))
		.map(({ event, matcher, handler, key }) => {
			const state = states.get(key);
			let status: TrustStatus = "untrusted";
			if (state?.enabled === false) status = "disabled";
			else if (state?.trustedHash !== undefined) {
				status = state.trustedHash === hookTrustHash(event, matcher, handler) ? "trusted" : "modified";
			}
			return { event, status };
		});
}

/** The `[hooks.state."…"]` tables of a config.toml, by key. */
export function readHookStates(toml: string): Map<string, HookState> {
	const states = new Map<string, HookState>();
	for (const [key, entries] of tablesOf(toml, /^\[\s*hooks\.state\.("(?:[^"\\]|\\.)*")\s*\]$/)) {
		const state: HookState = {};
		const hash = stringValue(entries.get("trusted_hash") ?? "");
		if (hash !== null) state.trustedHash = hash;
		const enabled = entries.get("enabled");
		if (enabled === "true" || enabled === "false") state.enabled = enabled === "true";
		states.set(key, state);
	}
	return states;
}

/** Whether config.toml marks `folder` as a trusted project (`[projects."<folder>"] trust_level = "trusted"`). */
export function projectTrusted(toml: string, folder: string): boolean {
	return tablesOf(toml, /^\[\s*projects\.("(?:[^"\\]|\\.)*")\s*\]$/).some(
		([key, entries]) => key === folder && stringValue(entries.get("trust_level") ?? "") === "trusted",
	);
}

/** Each command handler of a hooks file, with its trust key `<file>:<event_in_snake_case>:<group>:<handler>`. */
function handlersOf(file: string, hooksFile: unknown): Handler[] {
	const found: Handler[] = [];
	const hooks = isRecord(hooksFile) ? hooksFile.hooks : undefined;
	for (const [event, groups] of Object.entries(isRecord(hooks) ? hooks : {})) {
		if (!Array.isArray(groups)) continue;
		groups.forEach((group, groupIndex) => {
			if (!isRecord(group) || !Array.isArray(group.hooks)) return;
			group.hooks.forEach((handler, index) => {
				const key = `${file}:${eventLabel(event)}:${groupIndex}:${index}`;
				if (isRecord(handler) && handler.type === "command")
					found.push({ event, matcher: group.matcher, handler, key });
			});
		});
	}
	return found;
}

/** The tables whose header matches `header` (group 1: the quoted key), in file order, with their `key = value`s. */
function tablesOf(toml: string, header: RegExp): [string, Map<string, string>][] {
	const tables: [string, Map<string, string>][] = [];
	let current: Map<string, string> | null = null;
	for (const raw of toml.split(/\r?\n/)) {
		const line = raw.trim();
		if (line.startsWith("[")) {
			const quoted = header.exec(line)?.[1];
			const key = quoted ? stringValue(quoted) : null;
			const table: [string, Map<string, string>] | null = key === null ? null : [key, new Map()];
			if (table) tables.push(table);
			current = table?.[1] ?? null;
			continue;
		}
		const entry = /^([A-Za-z0-9_-]+)\s*=\s*(.+)$/.exec(line);
		if (current && entry?.[1] && entry[2]) current.set(entry[1], entry[2].trim());
	}
	return tables;
}

/** A TOML basic string's value (its escapes are JSON's for what Codex writes), or null. */
function stringValue(text: string): string | null {
	if (!text.startsWith('"')) return null;
	try {
		return textOf(JSON.parse(text));
	} catch {
		// Not a basic string this reader understands: treated as absent.
		return null;
	}
}

/** For `JSON.stringify`: every object with its keys sorted, as Codex hashes a hook's identity. */
function sortedKeys(_key: string, value: unknown): unknown {
	return isRecord(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1))) : value;
}
