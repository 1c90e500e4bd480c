/**
 * The environment a harness run (and the boulder CLI beside it) gets in a
 * test: the machine's, without the variables that would carry the real
 * user's settings or credentials in, and with HOME and the XDG folders inside
 * the test's own home, so nothing is read from or written to the real one.
 */
import { join } from "node:path";

/** HOME and the XDG base folders, all inside `home`. */
export function homeFolders(home: string): Record<string, string> {
	return {
		HOME: home,
		XDG_CONFIG_HOME: join(home, ".config"),
		XDG_CACHE_HOME: join(home, ".cache"),
		XDG_DATA_HOME: join(home, ".local", "share"),
		XDG_STATE_HOME: join(home, ".local", "state"),
	};
}

/** The machine's environment minus every variable whose name `drop` matches, with `homeFolders(home)`. */
export function isolatedEnv(home: string, drop: RegExp): Record<string, string> {
	const env: Record<string, string> = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (value === undefined || drop.test(key)) continue;
		env[key] = value;
	}
	return { ...env, ...homeFolders(home) };
}
