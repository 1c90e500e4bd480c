/**
 * The dashboard's browser tests' machinery: the real `boulder ui` (the built
 * bin) as a child process, and Debian's Chromium driven headless by
 * playwright-core, with a fresh profile and nothing that reaches the network.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";
import { BOULDER_BIN } from "./boulder-cli.js";

export const CHROMIUM = process.env.BOULDER_CHROMIUM ?? "/usr/bin/chromium";

/** The flags the tests run Chromium with: headless, no sandbox (root in CI), nothing phoned home. */
export const CHROMIUM_ARGS = [
	"--headless",
	"--no-sandbox",
	"--disable-gpu",
	"--disable-quic",
	"--no-first-run",
	"--disable-background-networking",
	"--disable-component-update",
	"--disable-sync",
];

export interface RunningUi {
	url: string;
	port: number;
	token: string;
	stop(): Promise<void>;
}

/** Starts `boulder ui` and waits for the address it prints. */
export async function startUi(options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<RunningUi> {
	const child: ChildProcess = spawn(process.execPath, [BOULDER_BIN, "ui"], {
		cwd: options.cwd,
		env: options.env,
		stdio: ["ignore", "pipe", "pipe"],
	});
	let out = "";
	let err = "";
	child.stderr?.on("data", (chunk) => {
		err += chunk;
	});
	const url = await new Promise<string>((resolve, reject) => {
		child.stdout?.on("data", (chunk) => {
			out += chunk;
			const found = /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(out);
			if (found) resolve(found[0]);
		});
		child.once("exit", (code) => reject(new Error(`boulder ui exited ${code} before printing its address: ${err}`)));
	});
	const parsed = new URL(url);
	return {
		url,
		port: Number(parsed.port),
		token: parsed.searchParams.get("token") ?? "",
		async stop() {
			if (child.exitCode !== null) return;
			const exited = new Promise((resolve) => child.once("exit", resolve));
			child.kill("SIGTERM");
			await exited;
		},
	};
}

export interface Browser {
	context: BrowserContext;
	close(): Promise<void>;
}

/** Chromium with a fresh profile; `extraArgs` for a test's own flags (a host mapping); scripts off on request. */
export async function launchBrowser(
	extraArgs: string[] = [],
	options: { javaScriptEnabled?: boolean; viewport?: { width: number; height: number } } = {},
): Promise<Browser> {
	const profile = await mkdtemp(join(tmpdir(), "boulder-chromium-"));
	const context = await chromium.launchPersistentContext(profile, {
		executablePath: CHROMIUM,
		headless: true,
		args: [...CHROMIUM_ARGS, ...extraArgs],
		viewport: options.viewport ?? { width: 1400, height: 1000 },
		javaScriptEnabled: options.javaScriptEnabled ?? true,
	});
	return {
		context,
		async close() {
			await context.close();
			await rm(profile, { recursive: true, force: true });
		},
	};
}
