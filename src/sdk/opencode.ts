/**
 * `boulder-agent/sdk/opencode`: boulder in a program that runs OpenCode
 * through its SDK (`createOpencode({ config })` from `@opencode-ai/sdk`).
 * The server OpenCode starts loads boulder's plugin, the same in-process
 * adapter `boulder install opencode` installs: nothing else changes.
 *
 * OpenCode's `config.plugin` lists modules to load, so the entry hands over
 * where this copy's plugin is (`BOULDER_PLUGIN`) and a helper that adds it to
 * a config (`withBoulder`); the plugin function itself is exported too, for a
 * program that loads plugins its own way.
 */
export { BoulderPlugin } from "../adapters/opencode/plugin.js";

/** The `file://` URL of this copy's OpenCode plugin, for `config.plugin`. */
export const BOULDER_PLUGIN: string = new URL("../adapters/opencode/plugin.js", import.meta.url).href;

/** The part of OpenCode's `Config` this entry touches; every other key is kept as it is. */
export interface OpencodeConfigWithPlugins {
	plugin?: string[];
}

/**
 * `config` with boulder's plugin added to `plugin` (once; a config that lists
 * it already is returned as it is): `createOpencode({ config: withBoulder({ model }) })`.
 */
export function withBoulder<C extends OpencodeConfigWithPlugins>(config?: C): C & { plugin: string[] } {
	const plugins = config?.plugin ?? [];
	const plugin = plugins.includes(BOULDER_PLUGIN) ? plugins : [...plugins, BOULDER_PLUGIN];
	return { ...(config as C), plugin };
}
