/**
 * The harnesses this plugin runs inside: OpenCode, and Kilo Code, an OpenCode
 * fork whose plugin API (`@kilocode/plugin`) is OpenCode's. The hub, the
 * installer and the doctor are written once; what differs between the two
 * hosts is data, and it is all here: the harness's name in boulder's state
 * and log, its words, where its config files live, where it caches
 * package-name plugins, and which built file its user-scope entry names.
 *
 * Facts as observed are in docs/opencode-notes.md and docs/kilo-notes.md.
 */

export interface PluginHost {
	/** The harness's name on the command line, in the state and in the decision log. */
	harness: "opencode" | "kilo";
	/** As people write it. */
	title: string;
	/** Its command on the PATH. */
	program: string;
	/** Its folder under `$XDG_CONFIG_HOME` and `$XDG_CACHE_HOME`. */
	folder: string;
	/** The project's config files it reads, relative to the project folder; a new file is the first. */
	projectConfigs: readonly string[];
	/** The user's config files it reads, in its config folder; a new file is the first. */
	userConfigs: readonly string[];
	/** The `$schema` a config file the installer creates carries. */
	schemaUrl: string;
	/** The built plugin a user-scope entry names, inside boulder's package (`/` separated). */
	pluginFile: string;
}

export const OPENCODE_HOST: PluginHost = {
	harness: "opencode",
	title: "OpenCode",
	program: "opencode",
	folder: "opencode",
	projectConfigs: ["opencode.json", "opencode.jsonc"],
	userConfigs: ["opencode.json", "opencode.jsonc"],
	schemaUrl: "https://opencode.ai/config.json",
	pluginFile: "dist/adapters/opencode/plugin.js",
};

/**
 * Kilo Code 7.7: project `kilo.json(c)` or `.kilo/kilo.json(c)`; user
 * `~/.config/kilo/kilo.jsonc`, which Kilo itself creates on its first start
 * (it also reads `kilo.json`, `config.json` and `opencode.json(c)` there).
 */
export const KILO_HOST: PluginHost = {
	harness: "kilo",
	title: "Kilo Code",
	program: "kilo",
	folder: "kilo",
	projectConfigs: ["kilo.json", "kilo.jsonc", ".kilo/kilo.json", ".kilo/kilo.jsonc"],
	userConfigs: ["kilo.jsonc", "kilo.json"],
	schemaUrl: "https://app.kilo.ai/config.json",
	pluginFile: "dist/adapters/opencode/kilo-plugin.js",
};

/**
 * Which host loaded the plugin, from its process's environment. Kilo sets
 * `KILO=1` and `KILO_PID` (its own pid) in its process, and `OPENCODE=1` as
 * well, so Kilo is asked first; a Kilo pid that is not this process's is a
 * variable inherited from a Kilo shell, not Kilo itself.
 */
export function hostFromEnv(env: NodeJS.ProcessEnv, pid: number = process.pid): PluginHost {
	if (env.KILO_PID !== undefined) return env.KILO_PID === String(pid) ? KILO_HOST : OPENCODE_HOST;
	return env.KILO === "1" ? KILO_HOST : OPENCODE_HOST;
}
