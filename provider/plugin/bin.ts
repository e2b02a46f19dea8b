// The script `pulumi-resource-irv` runs (bundled, with schema.json beside it).
import { main } from "./main.js";

await main(new URL("./schema.json", import.meta.url));
