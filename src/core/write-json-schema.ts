/** Writes the config's JSON Schema for editors: `npm run schema`. */
import { writeFileSync } from "node:fs";
import { configJsonSchema } from "./config.js";

const target = new URL("../../schema/boulder.config.schema.json", import.meta.url);
writeFileSync(target, `${JSON.stringify(configJsonSchema(), null, "\t")}\n`);
console.log(`wrote ${target.pathname.split("/").slice(-2).join("/")}`);
