/** `npm run schema`: writes the config's JSON Schema for editors, from the built zod schema. */
import { writeFileSync } from "node:fs";
import { configJsonSchema } from "../dist/core/config.js";

const target = new URL("../schema/boulder.config.schema.json", import.meta.url);
writeFileSync(target, `${JSON.stringify(configJsonSchema(), null, "\t")}\n`);
console.log("wrote schema/boulder.config.schema.json");
