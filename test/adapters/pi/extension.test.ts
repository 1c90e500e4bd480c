/**
 * The extension's notices, in each of pi's modes, through a fake of pi's
 * extension API: the `/boulder` command's answer is a notice.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import boulderExtension from "../../../src/adapters/pi/extension.js";
import { NOTICE_TYPE } from "../../../src/adapters/pi/messages.js";
import type { PiApi as ExtensionAPI, PiContext as ExtensionContext } from "../../../src/adapters/pi/pi-api.js";

let dir: string;
const previousState = process.env.BOULDER_STATE_HOME;

beforeEach(async () => {
	dir = await mkdtemp(path.join(tmpdir(), "boulder-pi-extension-"));
	await mkdir(path.join(dir, ".git"));
	process.env.BOULDER_STATE_HOME = path.join(dir, "state");
});

afterEach(async () => {
	if (previousState === undefined) delete process.env.BOULDER_STATE_HOME;
	else process.env.BOULDER_STATE_HOME = previousState;
	await rm(dir, { recursive: true, force: true });
});

type Handler = (args: string, ctx: ExtensionContext) => Promise<void>;

function fakePi() {
	const appended: { customType: string; data: unknown }[] = [];
	const commands = new Map<string, Handler>();
	const api = {
		on: () => undefined,
		registerTool: () => undefined,
		registerCommand: (name: string, options: { handler: Handler }) => commands.set(name, options.handler),
		sendMessage: () => undefined,
		appendEntry: (customType: string, data: unknown) => appended.push({ customType, data }),
	};
	return { api: api as unknown as ExtensionAPI, appended, commands };
}

function context(mode: string): ExtensionContext {
	return {
		cwd: dir,
		mode,
		hasUI: false,
		isIdle: () => true,
		hasPendingMessages: () => false,
		sessionManager: { getSessionId: () => "s1", getEntries: () => [] },
	} as unknown as ExtensionContext;
}

describe("the pi extension's notices", () => {
	it("appends them as boulder-notice entries in --mode json, where pi writes them into its JSON stream", async () => {
		const pi = fakePi();
		boulderExtension(pi.api);
		await pi.commands.get("boulder")?.("status", context("json"));
		expect(pi.appended).toHaveLength(1);
		expect(pi.appended[0]).toMatchObject({ customType: NOTICE_TYPE, data: { level: "info" } });
		expect(JSON.stringify(pi.appended[0]?.data)).toMatch(/"text":"[^"]+/);
	});

	it("appends nothing in print mode, where they go to stderr", async () => {
		const pi = fakePi();
		boulderExtension(pi.api);
		const write = process.stderr.write;
		const written: string[] = [];
		process.stderr.write = ((chunk: string) => written.push(chunk) > 0) as typeof process.stderr.write;
		try {
			await pi.commands.get("boulder")?.("status", context("print"));
		} finally {
			process.stderr.write = write;
		}
		expect(pi.appended).toEqual([]);
		expect(written.join("")).not.toBe("");
	});
});
