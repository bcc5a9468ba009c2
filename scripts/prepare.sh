#!/usr/bin/env bash
# Installs what the published packages need (the six packages and the root's build tools, not the
# end-to-end suites' agent CLIs) and builds them: the start of `npm run kit`, and what
# install-from-checkout.mjs runs on a checkout that is not built yet.
export KIT_INSTALL_FILTERS="./packages/* kit-monorepo"
source "$(dirname "$0")/bootstrap.sh"
pnpm turbo run build --filter='./packages/*' --output-logs=errors-only
