/**
 * The user's own folders, found so that no relative path ever stands for one.
 * An empty or relative `HOME` (or XDG variable) would put boulder's user
 * state, the trust record, the user config and the install backups, in
 * whatever folder the process runs in: a checkout's, where a repository could
 * have shipped them. So `HOME` counts only when absolute, else the account's
 * own home folder does, and an XDG variable only when absolute (as the XDG
 * spec asks).
 */
import os from "node:os";
import path from "node:path";
import { BoulderError } from "../core/errors.js";

/** `HOME` when absolute, else the account's home folder; throws when neither is absolute. */
export function userHome(env: NodeJS.ProcessEnv = process.env): string {
	const home = env.HOME;
	if (home && path.isAbsolute(home)) return home;
	const account = accountHome();
	if (account !== null) return account;
	const said = home === undefined ? "not set" : JSON.stringify(home);
	throw new BoulderError(
		"usage",
		`No home folder: HOME is ${said} and the account has none. Set HOME to an absolute path.`,
	);
}

/** An XDG base folder: the variable when it is absolute, else `fallback` (relative to the home folder). */
export function xdgFolder(
	env: NodeJS.ProcessEnv,
	variable: "XDG_CONFIG_HOME" | "XDG_STATE_HOME",
	fallback: string,
): string {
	const value = env[variable];
	return value && path.isAbsolute(value) ? value : path.join(userHome(env), fallback);
}

function accountHome(): string | null {
	try {
		const { homedir } = os.userInfo();
		return homedir && path.isAbsolute(homedir) ? homedir : null;
	} catch {
		// No account entry (a container's made-up uid): there is no home to fall back on.
		return null;
	}
}
