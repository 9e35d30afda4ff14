// The files `hearsay init` writes: a commented starter rule file and its conversation tests, a settings
// file, the schemas for editors, what the folder needs as a repository of its own (package.json, CI workflow,
// Dockerfile: repository-files.ts), a .gitignore for the journal and token files, and a README that says how
// to run the bot.
import { rulesSchema } from '../generated/rules-schema.js';
import { testsSchema } from '../generated/tests-schema.js';
import { VERSION } from '../generated/version.js';
import { CI_WORKFLOW, DEFAULT_PACKAGE_SPEC, DOCKERIGNORE, dockerfile, packageJson, packageName, VENDORED_TARBALL, VENDOR_README } from './repository-files.js';

export const STARTER_RULES = `# yaml-language-server: $schema=../schemas/rules.schema.json
# Your bot's rules. Every *.yaml file in this folder is read, in name order; rules are tried top to bottom
# and the first one that matches answers. Edit this file while the bot runs: the next answer follows it.
# Check the rules at any time with: hearsay check rules/

# The languages the bot answers in. A text given per language (as /start below) is sent in the user's
# language: their app's (de, de-AT, de-CH… are German), else the default. Other texts are sent as written.
languages:
  default: en
  supported: [en, de]

rules:
  # /start is the first message every user sends. {{user.first_name}} is the sender's first name.
  - id: start
    command: start
    reply:
      en: "Hello, {{user.first_name}}! I am a brand-new bot. Try /help."
      de: "Hallo, {{user.first_name}}! Ich bin ein ganz neuer Bot. Probieren Sie /help."
    examples: ["/start"]

  # A multi-line reply: |- keeps the line breaks.
  - id: help
    command: help
    reply: |-
      Here is what I understand:
      /start - say hello
      /help - this list
      "order 1234" - where is my order
      You can also just say hi.
    examples: ["/help"]

  # A regular expression (case-insensitive); a named group is available as {{match.NAME}}.
  - id: order
    pattern: 'order\\s*#?(?<number>\\d{3,10})'
    reply: "Order {{match.number}} is on its way."
    reply_to_message: true
    examples: ["where is my order 1234?"]

  # Any of these words or phrases, wherever they appear; several replies are picked at random.
  - id: greet
    keywords: [hi, hello, hey]
    reply:
      - "Hi {{user.first_name}}!"
      - "Hello there! How can I help?"
    examples: ["hi", "Hello!"]

  # Answers only when no other rule matched.
  - id: fallback
    fallback: true
    reply: "Sorry, I did not get that. Try /help."
    examples: ["what is the meaning of life"]
`;

export const STARTER_TESTS = `# yaml-language-server: $schema=../schemas/tests.schema.json
# What the bot must answer, step by step. Run with: hearsay test
# After editing the rules, run it again; --update writes the bot's actual answers into empty \`expect:\`s.
tests:
  - name: greeting and help
    user: { first_name: Ann }
    steps:
      - say: /start
        expect: "Hello, Ann! I am a brand-new bot. Try /help."
      - say: hi
        expect: { pattern: '^(Hi Ann!|Hello there! How can I help\\?)$' }   # one of the replies, picked at random
      - say: /help
        expect: { contains: "/start - say hello" }

  - name: a user whose app is in German
    user: { first_name: Lea, language_code: de }
    steps:
      - say: /start
        expect: "Hallo, Lea! Ich bin ein ganz neuer Bot. Probieren Sie /help."

  - name: orders and anything else
    steps:
      - say: where is my order 1234?
        expect: "Order 1234 is on its way."
      - say: what is the meaning of life
        expect: "Sorry, I did not get that. Try /help."
`;

export const SETTINGS = `# hearsay settings for this bot. Every key is optional; these are the defaults.
# The bot token is never written here: set BOT_TOKEN (or BOT_TOKEN_FILE) in the environment.
rules: rules                 # the rule folder, relative to this file
data_dir: .hearsay-data      # the journal of handled updates; keep it, one running bot per folder
# base_url: https://api.telegram.org   # the Bot API; BASE_URL overrides it (the local sandbox: http://127.0.0.1:8081)

ingress:
  mode: polling              # polling | webhook (webhook also needs webhook.url)

log:
  level: info                # debug also logs what users wrote
`;

export const GITIGNORE = `# hearsay's journal of handled updates (see data_dir in hearsay.yaml)
.hearsay-data/
# npm install's folder and the JUnit report of npm test
node_modules/
test-results.xml
# Bot tokens: keep them out of version control
*.token
bot-token
.env
`;

/** The project's README: how to install the pinned hearsay, try, check, test and deploy; no path of this machine in it. */
export function readme(name: string, spec: string): string {
  const pinned =
    spec === DEFAULT_PACKAGE_SPEC
      ? `\`${VENDORED_TARBALL}\`, a release tarball of hearsay: make it once in a hearsay checkout with
\`npm pack --pack-destination <this folder>/vendor\` and commit it (or replace the pin with another source npm
understands, such as your hearsay repository's git URL: \`"hearsay": "git+https://…/hearsay.git#v${VERSION}"\`)`
      : `\`${spec}\``;
  return `# ${name}

A chat bot run by hearsay from the YAML rules in \`rules/\`.

## Set up

package.json pins hearsay to ${pinned}. Then:

\`\`\`sh
npm install         # installs the pinned hearsay (commit package-lock.json)
\`\`\`

## Try it locally (no token, no network)

\`\`\`sh
npx hearsay start
\`\`\`

starts a local sandbox of the messaging service with a chat page, creates a demo bot there and answers it
with the rules in \`rules/\`. Open the address it prints and send \`/start\`. Edit \`rules/10-start.yaml\`
while it runs: the next answer follows your edit, and a mistake is shown on the page with its line.
\`npx hearsay chat\` talks to the rules right in the terminal.

## Check and test

\`\`\`sh
npm test            # hearsay check --strict rules/, then the conversations in tests/ (JUnit XML in test-results.xml)
\`\`\`

\`.github/workflows/bot.yml\` runs the same on every push and pull request (GitHub Actions).

## Run it for a real bot

Create the bot with the messaging service's bot-creation assistant, then:

\`\`\`sh
export BOT_TOKEN=123456789:AAH...   # or BOT_TOKEN_FILE=/path/to/a/file/holding/it
npx hearsay run                     # long polling, rules from rules/
\`\`\`

A bot created in a local sandbox runs the same way, pointed at the sandbox:
\`BOT_TOKEN=<its token> BASE_URL=http://127.0.0.1:8081 npx hearsay start\`.

## Run it in a container

The Dockerfile builds hearsay's single executable from the pinned package and runs it with the rules:

\`\`\`sh
docker build -t ${packageName(name)} .
docker run --rm -e BOT_TOKEN -v "$PWD/rules:/bot/rules:ro" -v ${packageName(name)}-data:/bot/.hearsay-data ${packageName(name)}
\`\`\`
`;
}

/** The project's files by path relative to its folder; `spec` is the dependency spec of hearsay in package.json. */
export function projectFiles(name: string, spec: string = DEFAULT_PACKAGE_SPEC): Map<string, string> {
  return new Map([
    ['rules/10-start.yaml', STARTER_RULES],
    ['tests/10-start.yaml', STARTER_TESTS],
    ['hearsay.yaml', SETTINGS],
    ['schemas/rules.schema.json', `${JSON.stringify(rulesSchema, null, 2)}\n`],
    ['schemas/tests.schema.json', `${JSON.stringify(testsSchema, null, 2)}\n`],
    ['package.json', packageJson(name, spec)],
    ...(spec === DEFAULT_PACKAGE_SPEC ? ([['vendor/README.md', VENDOR_README]] as const) : []),
    ['.github/workflows/bot.yml', CI_WORKFLOW],
    ['Dockerfile', dockerfile(name)],
    ['.dockerignore', DOCKERIGNORE],
    ['.gitignore', GITIGNORE],
    ['README.md', readme(name, spec)],
  ]);
}
