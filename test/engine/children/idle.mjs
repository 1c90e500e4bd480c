// Child process: loads the engine, says it is ready, waits for the go file, then answers one idle for the
// session and prints the decision kind.
import { existsSync, writeFileSync } from "node:fs";
import { Config } from "../../../dist/core/config.js";
import { Engine } from "../../../dist/engine/engine.js";
import { filePlans } from "../../../dist/engine/plan-files.js";
import { FileStore } from "../../../dist/state/file-store.js";

const [worktree, goFile, readyFile] = process.argv.slice(2);
writeFileSync(readyFile, "");
while (!existsSync(goFile)) await new Promise((resolve) => setTimeout(resolve, 2));
const engine = new Engine({ store: new FileStore(worktree), config: Config.parse({}), plans: filePlans });
const result = await engine.onIdle({ harness: "test", sessionId: "ses_race" });
process.stdout.write(result.kind);
