// The plain loader's entry, built into dist/front-plain.cjs: the bundle's first line names `kitBundle`.
import { type BundleModule, loadBody } from './load-body.ts';

declare const kitBundle: BundleModule;
loadBody(kitBundle);
