#!/usr/bin/env node
import { x } from "./index.ts";
console.log(x);
