/**
 * Loads the effective config: defaults, then the user's file, then the
 * project's (the project wins). Says where each value came from, and names the
 * file, key and expectation when a file is bad.
 */
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { type Config, ceilingsCappedBy, defaultConfig, mergeConfigInputs, parseConfig } from "../core/config.js";
import { BoulderError, isBoulderError } from "../core/errors.js";
import { xdgFolder } from "../state/user-home.js";

export const PROJECT_CONFIG_FILE = "boulder.config.json";

export interface ConfigLayer {
	source: string;
	values: Record<string, unknown>;
}

export interface LoadedConfig {
	config: Config;
	layers: ConfigLayer[];
}

export function userConfigPath(env: NodeJS.ProcessEnv = process.env): string {
	return path.join(xdgFolder(env, "XDG_CONFIG_HOME", ".config"), "boulder", "config.json");
}

/**
 * The project's file wins over the user's, except for the hard limits
 * (`budgets.ceiling.*`): a project may tighten them, never loosen them
 * (`ceilingsCappedBy`), since its file may have come with a checkout.
 * `parse` is `parseConfig` (a test counts the calls).
 */
export function loadConfig(
	worktree: string,
	env: NodeJS.ProcessEnv = process.env,
	parse: typeof parseConfig = parseConfig,
): LoadedConfig {
	const layers: ConfigLayer[] = [];
	const userFile = userConfigPath(env);
	const projectFile = path.join(worktree, PROJECT_CONFIG_FILE);
	for (const file of [userFile, projectFile]) {
		const values = readLayer(file);
		if (values) layers.push({ source: file, values });
	}
	// Each layer is parsed once (a bad file is named on its own), and that parse is reused: a single file is the
	// merged config, and the user's file is the user's own config. Every hook process loads the config.
	const parsed = layers.map((layer) => parse(layer.values, layer.source));
	if (layers.length === 0) return { config: defaultConfig(), layers };
	const merged =
		parsed.length === 1
			? (parsed[0] as Config)
			: parse(mergeConfigInputs(...layers.map((layer) => layer.values)), layers.map((l) => l.source).join(" + "));
	const user = layers.findIndex((layer) => layer.source === userFile);
	const own = user === -1 ? defaultConfig() : (parsed[user] as Config);
	return {
		config: layers.some((layer) => layer.source === projectFile) ? ceilingsCappedBy(merged, own) : merged,
		layers,
	};
}

/** No config is anywhere near this big; a larger file is a mistake (or a device), not a config. */
const MAX_CONFIG_BYTES = 1024 * 1024;

function readLayer(file: string): Record<string, unknown> | null {
	let text: string;
	try {
		// A FIFO or a device named as the config would hang or never end: look before reading.
		const seen = statSync(file, { throwIfNoEntry: false });
		if (!seen) return null;
		if (!seen.isFile()) {
			throw new BoulderError("config-unreadable", `cannot read ${file}: it is not a regular file`);
		}
		if (seen.size > MAX_CONFIG_BYTES) {
			throw new BoulderError("config-unreadable", `cannot read ${file}: it is larger than ${MAX_CONFIG_BYTES} bytes`);
		}
		text = readFileSync(file, "utf8");
	} catch (error) {
		if (isBoulderError(error)) throw error;
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
		throw new BoulderError("config-unreadable", `cannot read ${file}: ${(error as Error).message}`, { cause: error });
	}
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch (error) {
		throw new BoulderError("config-invalid", `${file} is not valid JSON: ${(error as Error).message}`, {
			cause: error,
		});
	}
	if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
		throw new BoulderError("config-invalid", `${file} must hold a JSON object`);
	}
	return parsed as Record<string, unknown>;
}

/** Where each effective value came from: "default" or the file that set it. */
export function configSources(loaded: LoadedConfig): Record<string, string> {
	const sources: Record<string, string> = {};
	const walk = (value: unknown, prefix: string, source: string | null) => {
		if (value !== null && typeof value === "object" && !Array.isArray(value)) {
			for (const [key, inner] of Object.entries(value)) walk(inner, prefix ? `${prefix}.${key}` : key, source);
			return;
		}
		sources[prefix] = source ?? "default";
	};
	walk(defaultConfig(), "", null);
	for (const layer of loaded.layers) walk(layer.values, "", layer.source);
	// A ceiling the project tried to loosen comes from where the tighter value did.
	const ceiling = loaded.config.budgets.ceiling;
	for (const kind of Object.keys(ceiling) as (keyof typeof ceiling)[]) {
		const key = `budgets.ceiling.${kind}`;
		const from = loaded.layers.find((layer) => layer.source === sources[key]);
		const said = (from?.values.budgets as { ceiling?: Record<string, unknown> } | undefined)?.ceiling?.[kind];
		if (from && said !== ceiling[kind]) {
			const user = loaded.layers.find((layer) => layer !== from && sourceSets(layer, kind));
			sources[key] = user?.source ?? "default";
		}
	}
	return sources;
}

function sourceSets(layer: ConfigLayer, kind: string): boolean {
	const ceiling = (layer.values.budgets as { ceiling?: Record<string, unknown> } | undefined)?.ceiling;
	return ceiling !== undefined && ceiling !== null && typeof ceiling === "object" && Object.hasOwn(ceiling, kind);
}
