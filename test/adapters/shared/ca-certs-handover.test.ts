import { describe, expect, it } from "vitest";
import { formFor } from "../../../src/adapters/command-hook/install.js";
import { ourCommandReader } from "../../../src/adapters/shared/hook-command.js";
import {
	CA_CERTS_HANDOVER,
	type HookProgram,
	handBackCaCerts,
	pinnedCommand,
} from "../../../src/adapters/shared/hook-form.js";
import { type PortableFinder, portableCommand } from "../../../src/adapters/shared/portable-command.js";

const FINDER: PortableFinder = {
	projectDirVar: "CLAUDE_PROJECT_DIR",
	bundle: "dist/hook/claude-code.cjs",
	link: "boulder/claude-code-hook.cjs",
	bin: "boulder-claude-code-hook",
	args: "Stop",
	otherwise: "exit 0",
};

/**
 * The installed hook commands start the hook without `NODE_EXTRA_CA_CERTS`
 * (node reads it at every start) and the hook gives it back to its children;
 * `test/adapters/hook/ca-certs.process.test.ts` runs them.
 */
describe("the installed commands and NODE_EXTRA_CA_CERTS", () => {
	it("sets the variable aside before every exec, in both finders", () => {
		for (const finder of [FINDER, { ...FINDER, projectDirVar: null }]) {
			const command = portableCommand(finder);
			const execs = command.match(/exec /g) ?? [];
			const handed = command.match(/BOULDER_NODE_EXTRA_CA_CERTS="\$NODE_EXTRA_CA_CERTS" NODE_EXTRA_CA_CERTS= exec /g);
			expect(execs.length).toBe(2);
			expect(handed?.length).toBe(execs.length);
		}
	});

	it("sets it aside in the pinned command written for this machine, which still reads back as boulder's", () => {
		const program = formFor("user", "/opt/boulder", "dist/hook/boulder-hook.cjs") as HookProgram;
		const command = pinnedCommand(program, "codex Stop");
		const read = ourCommandReader({
			harness: "codex",
			marker: "--boulder-hook",
			portableTag: "portable",
			bin: "boulder-hook",
		});

		expect(program.shell).toBe(process.platform === "win32" ? undefined : "sh");
		if (process.platform !== "win32")
			expect(command).toMatch(/^BOULDER_NODE_EXTRA_CA_CERTS="\$NODE_EXTRA_CA_CERTS" NODE_EXTRA_CA_CERTS= /);
		expect(read(command)).toEqual({
			form: "pinned",
			node: process.execPath,
			bundle: "/opt/boulder/dist/hook/boulder-hook.cjs",
			event: "Stop",
			version: program.version,
		});
	});

	it("writes a pinned command for another shell (the plugin's, Windows) as it always was", () => {
		const program = { node: "node", bundle: "/p/hook.cjs", version: "plugin" };
		expect(pinnedCommand(program, "Stop")).toBe("node /p/hook.cjs Stop --boulder-hook=plugin");
	});

	it("gives the variable back as it was, and takes the handover away", () => {
		const env: NodeJS.ProcessEnv = { NODE_EXTRA_CA_CERTS: "", [CA_CERTS_HANDOVER]: "/etc/corp ca.pem", PATH: "/bin" };
		handBackCaCerts(env);
		expect(env).toEqual({ NODE_EXTRA_CA_CERTS: "/etc/corp ca.pem", PATH: "/bin" });
	});

	it("leaves it unset when the user had none", () => {
		const env: NodeJS.ProcessEnv = { NODE_EXTRA_CA_CERTS: "", [CA_CERTS_HANDOVER]: "" };
		handBackCaCerts(env);
		expect(env).toEqual({});
	});

	it("changes nothing in an environment the portable command did not start", () => {
		const env: NodeJS.ProcessEnv = { NODE_EXTRA_CA_CERTS: "/etc/ca.pem" };
		handBackCaCerts(env);
		expect(env).toEqual({ NODE_EXTRA_CA_CERTS: "/etc/ca.pem" });
	});
});
