// What `hearsay init` writes so the bot's folder can be its own repository with CI: a package.json that pins
// hearsay and runs `check --strict` and `test --junit`, a GitHub Actions workflow that runs them, and a
// Dockerfile that builds hearsay's single executable from that pinned package and runs it with the rules.
import { VERSION } from '../generated/version.js';

/** Where the pinned release tarball lives in the project (made with `npm pack` in a hearsay checkout). */
export const VENDORED_TARBALL = `vendor/hearsay-${VERSION}.tgz`;

/** The dependency spec init writes unless told another (`--package`): the release tarball in vendor/. */
export const DEFAULT_PACKAGE_SPEC = `file:${VENDORED_TARBALL}`;

/** vendor/README.md: what goes in the folder the pinned tarball lives in. */
export const VENDOR_README = `# vendor/

package.json pins hearsay to \`${VENDORED_TARBALL}\`. Make it once in a hearsay checkout and commit it:

\`\`\`sh
npm pack --pack-destination <this folder>
\`\`\`
`;

/** An npm package name for the folder name: lowercase, no spaces, at most 214 characters. */
export function packageName(folder: string): string {
  const name = folder
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+|-+$/g, '');
  return (name || 'my-bot').slice(0, 214);
}

/** package.json: hearsay pinned, and the scripts CI runs (`npm test`). */
export function packageJson(folder: string, spec: string): string {
  const manifest = {
    name: packageName(folder),
    version: '0.1.0',
    private: true,
    description: 'A chat bot run by hearsay from the YAML rules in rules/',
    scripts: {
      start: 'hearsay start',
      check: 'hearsay check --strict rules/',
      test: 'hearsay check --strict rules/ && hearsay test --junit test-results.xml',
    },
    dependencies: { hearsay: spec },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** A GitHub Actions workflow: install the pinned hearsay, check the rules strictly, run the tests, keep the JUnit report. */
export const CI_WORKFLOW = `# Checks the rules and runs the conversation tests on every push and pull request.
name: bot
on: [push, pull_request]
jobs:
  check-and-test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
      # npm ci once package-lock.json is committed (npm install writes it)
      - run: if [ -f package-lock.json ]; then npm ci; else npm install; fi
      - run: npm test   # hearsay check --strict rules/ && hearsay test --junit test-results.xml
      - uses: actions/upload-artifact@v4
        if: always()
        with:
          name: test-results
          path: test-results.xml
`;

/**
 * The sentinel Node's single executable applications look for (the same as hearsay's own build-binary script).
 * Joined at run time: written whole, it would be in the bundle injected into the executable, and postject
 * refuses a binary holding the sentinel twice.
 */
const SEA_FUSE = ['NODE', 'SEA', 'FUSE', 'fce680ab2cc467b6e072b8b5df1996b2'].join('_');

/** The commands of the Dockerfile's build stage, run in its WORKDIR after `COPY . .` (a test runs them without Docker). */
export const EXECUTABLE_BUILD_STEPS = [
  'npm install --omit=dev --no-audit --no-fund',
  `echo '{"main":"node_modules/hearsay/dist/hearsay-bundle.cjs","output":"hearsay.blob","disableExperimentalSEAWarning":true}' > sea.json`,
  'node --experimental-sea-config sea.json',
  'cp "$(command -v node)" hearsay',
  `npx --yes postject@1.0.0-alpha.6 hearsay NODE_SEA_BLOB hearsay.blob --sentinel-fuse ${SEA_FUSE}`,
] as const;

/** A two-stage Dockerfile: build the single executable from the pinned hearsay, then run it in a small image. */
export function dockerfile(folder: string): string {
  const image = packageName(folder);
  return `# ${folder} in a container: hearsay's single executable, built here from the hearsay pinned in package.json,
# answering with the rules in rules/ (baked in; mount your folder over them to edit without rebuilding: hearsay
# reloads them when they change). The token comes from the environment, never from the image.
#   docker build -t ${image} .
#   docker run --rm -e BOT_TOKEN -v "$PWD/rules:/bot/rules:ro" -v ${image}-data:/bot/.hearsay-data ${image}
FROM node:20-bookworm-slim AS build
WORKDIR /build
COPY . .
RUN ${EXECUTABLE_BUILD_STEPS[0]}
# Node's single executable application: the hearsay bundle injected into a copy of node.
RUN ${EXECUTABLE_BUILD_STEPS.slice(1).join(' \\\n && ')}

FROM debian:bookworm-slim
COPY --from=build /build/hearsay /usr/local/bin/hearsay
# glibc's malloc gives freed memory back to the system instead of keeping it per thread (a few MB less).
ENV MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072
WORKDIR /bot
COPY hearsay.yaml ./
COPY rules/ ./rules/
RUN useradd --system --uid 10001 hearsay && mkdir .hearsay-data && chown hearsay .hearsay-data
USER hearsay
VOLUME ["/bot/.hearsay-data"]
ENTRYPOINT ["hearsay"]
CMD ["run"]
`;
}

/** What the build stage's `COPY . .` leaves out. */
export const DOCKERIGNORE = `node_modules/
.hearsay-data/
test-results.xml
*.token
bot-token
.env
.git/
`;
