/**
 * A throwaway PostgreSQL for the fleet's tests and benches: `initdb` in a
 * temp folder, `pg_ctl start` on a free loopback port (and a socket in the
 * same folder), stopped and removed at the end. The binaries are found on
 * the PATH or under `/usr/lib/postgresql/<version>/bin` (Debian's layout).
 *
 * PostgreSQL refuses to run as root: as root, the cluster runs as the
 * `postgres` user (Debian's package creates it), its folder handed to it.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";

export interface PgCluster {
	/** `postgres://boulder@127.0.0.1:PORT/fleet` (trust auth on loopback: no password). */
	url: string;
	port: number;
	dir: string;
	/** The URL of another database in this cluster, created on first ask. */
	database(name: string): Promise<string>;
	stop(): void;
	start(): void;
	/** Stops the server and removes its folder. */
	destroy(): void;
}

/** The folder holding initdb/pg_ctl, or null when PostgreSQL is not installed. */
export function postgresBin(): string | null {
	for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
		if (dir && existsSync(path.join(dir, "initdb")) && existsSync(path.join(dir, "pg_ctl"))) return dir;
	}
	const debian = "/usr/lib/postgresql";
	if (!existsSync(debian)) return null;
	const versions = readdirSync(debian)
		.filter((name) => existsSync(path.join(debian, name, "bin", "initdb")))
		.sort((a, b) => Number(b) - Number(a));
	return versions[0] ? path.join(debian, versions[0], "bin") : null;
}

export async function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => {
			const address = server.address();
			const port = typeof address === "object" && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

function runAs(): { uid: number; gid: number } | null {
	if (process.getuid?.() !== 0) return null;
	const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
	const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
	return { uid, gid };
}

export async function startPgCluster(options: { settings?: Record<string, string> } = {}): Promise<PgCluster> {
	const bin = postgresBin();
	if (!bin) throw new Error("PostgreSQL is not installed: no initdb on the PATH or under /usr/lib/postgresql/*/bin");
	const who = runAs();
	const dir = mkdtempSync(path.join(tmpdir(), "boulder-pg-"));
	if (who) chownSync(dir, who.uid, who.gid);
	const data = path.join(dir, "data");
	const run = (tool: string, args: string[]) => {
		const result = spawnSync(path.join(bin, tool), args, {
			encoding: "utf8",
			cwd: dir,
			env: { ...process.env, LC_ALL: "C", LANG: "C" },
			...(who ? { uid: who.uid, gid: who.gid } : {}),
		});
		if (result.status !== 0) {
			throw new Error(`${tool} ${args.join(" ")} failed (${result.status}): ${result.stderr || result.stdout}`);
		}
		return result.stdout;
	};
	run("initdb", ["-D", data, "-U", "boulder", "-A", "trust", "-E", "UTF8", "--no-sync", "--no-instructions"]);
	const port = await freePort();
	const settings = {
		listen_addresses: "127.0.0.1",
		port: String(port),
		unix_socket_directories: dir,
		fsync: "off",
		synchronous_commit: "off",
		full_page_writes: "off",
		max_connections: "300",
		shared_buffers: "64MB",
		...options.settings,
	};
	const serverOptions = Object.entries(settings)
		.map(([key, value]) => `-c ${key}=${value}`)
		.join(" ");
	let running = false;
	const start = () => {
		run("pg_ctl", ["-D", data, "-l", path.join(dir, "server.log"), "-o", serverOptions, "-w", "-t", "60", "start"]);
		running = true;
	};
	const stop = () => {
		if (!running) return;
		run("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "60", "stop"]);
		running = false;
	};
	start();
	const base = `postgres://boulder@127.0.0.1:${port}`;
	const created = new Set<string>(["postgres"]);
	const database = async (name: string) => {
		if (!created.has(name)) {
			const client = new pg.Client({ connectionString: `${base}/postgres` });
			await client.connect();
			try {
				await client.query(`CREATE DATABASE "${name.replace(/"/g, "")}"`);
			} finally {
				await client.end();
			}
			created.add(name);
		}
		return `${base}/${name}`;
	};
	let url: string;
	try {
		url = await database("fleet");
	} catch (error) {
		stop();
		rmSync(dir, { recursive: true, force: true });
		throw error;
	}
	return {
		url,
		port,
		dir,
		database,
		stop,
		start,
		destroy() {
			try {
				stop();
			} finally {
				rmSync(dir, { recursive: true, force: true });
			}
		},
	};
}
