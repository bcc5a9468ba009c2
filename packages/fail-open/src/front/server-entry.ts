// The verdict-server front's entry, built into dist/front-served.cjs: the bundle's first line names `kitBundle`.
import { runFront, type ServedBundle } from './server-front.ts';

declare const kitBundle: ServedBundle;
runFront(kitBundle);
