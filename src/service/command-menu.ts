// The app's "/" command menu from the rules: every command rule with a `description` is listed, and hearsay sets
// the lists with setMyCommands at start and again after a reload that changes them, deleting a list no rule
// fills any more. Lists are per scope — the default, and, when a rule's chat_types keep it to private chats or to
// groups, all private chats and all group chats apart — and per language: one for each language the rules
// support (language_code) and one for everyone else, in the default language. Rules without a description
// leave the menu alone, so one set by other means is kept.
import type { BotApi, BotCommandScope } from '../api/types.js';
import type { CompiledRule, RuleSet } from '../engine/rule-set.js';
import type { Logger } from '../log/logger.js';

/** One list the service keeps: its scope, its language (none: everyone else) and its commands in rule order. */
export interface CommandList {
  readonly scope: BotCommandScope;
  readonly language_code?: string;
  readonly commands: ReadonlyArray<{ command: string; description: string }>;
}

const PRIVATE = new Set(['private']);
const GROUPS = new Set(['group', 'supergroup']);

/** Whether `rule` answers in chats of one of `types` (no chat_types: everywhere). */
function reaches(rule: CompiledRule, types: ReadonlySet<string>): boolean {
  return rule.chatTypes === null || [...types].some((type) => rule.chatTypes!.has(type));
}

/** The description in `language` (undefined: the default language's, or the one text for all). */
function describe(rule: CompiledRule, language: string | undefined, ruleSet: RuleSet): string | undefined {
  const description = rule.description!;
  if (typeof description === 'string') return description;
  return description[language ?? ruleSet.languages?.default ?? ''] ?? description[ruleSet.languages?.default ?? ''] ?? Object.values(description)[0];
}

/** The lists the rules call for; empty when no command rule has a description. */
export function commandLists(ruleSet: RuleSet): CommandList[] {
  const described = ruleSet.rules.filter((rule) => rule.description !== undefined && rule.trigger.kind === 'command');
  if (described.length === 0) return [];
  // A command answered under several rules (say, per chat type) is listed once per scope: its first description.
  const scoped = described.some((rule) => rule.chatTypes !== null);
  const scopes: Array<[BotCommandScope, ReadonlySet<string> | null]> = scoped
    ? [
        [{ type: 'all_private_chats' }, PRIVATE],
        [{ type: 'all_group_chats' }, GROUPS],
      ]
    : [[{ type: 'default' }, null]];
  const languages: Array<string | undefined> = [undefined, ...(ruleSet.languages?.supported ?? [])];
  const lists: CommandList[] = [];
  for (const [scope, types] of scopes) {
    const rules = described.filter((rule) => types === null || reaches(rule, types));
    for (const language of languages) {
      const seen = new Set<string>();
      const commands = rules.flatMap((rule) => {
        const command = rule.trigger.kind === 'command' ? rule.trigger.name : '';
        if (seen.has(command)) return [];
        seen.add(command);
        return [{ command, description: describe(rule, language, ruleSet) ?? command }];
      });
      if (commands.length > 0) lists.push({ scope, ...(language !== undefined ? { language_code: language } : {}), commands });
    }
  }
  return lists;
}

const keyOf = (list: Pick<CommandList, 'scope' | 'language_code'>) => `${list.scope.type}|${list.language_code ?? ''}`;

/** Keeps the service's command menu in step with the rules: `sync` after start and after each good reload. */
export class CommandMenu {
  /** What was set last, by scope and language (the JSON of its commands). */
  private applied = new Map<string, { list: CommandList; json: string }>();
  private syncing: Promise<void> = Promise.resolve();

  constructor(
    private readonly api: BotApi,
    private readonly logger: Logger,
  ) {}

  /** Sets the lists that changed and deletes those no rule fills now; one sync at a time, failures logged. */
  sync(ruleSet: RuleSet): Promise<void> {
    this.syncing = this.syncing.then(() => this.apply(commandLists(ruleSet)));
    return this.syncing;
  }

  private async apply(lists: CommandList[]): Promise<void> {
    const next = new Map(lists.map((list) => [keyOf(list), { list, json: JSON.stringify(list.commands) }]));
    let changed = 0;
    try {
      for (const [key, entry] of next) {
        if (this.applied.get(key)?.json === entry.json) continue;
        changed += 1;
        await this.api.call('setmycommands', { commands: [...entry.list.commands], scope: entry.list.scope, ...language(entry.list) });
        this.applied.set(key, entry);
      }
      for (const [key, { list }] of this.applied) {
        if (next.has(key)) continue;
        changed += 1;
        await this.api.call('deletemycommands', { scope: list.scope, ...language(list) });
        this.applied.delete(key);
      }
      if (changed > 0) this.logger.info({ lists: next.size }, 'command menu set');
    } catch (error) {
      // The bot answers as before; only its menu is stale. The next reload tries again.
      this.logger.warn({ reason: error instanceof Error ? error.message : String(error) }, 'the command menu could not be set');
    }
  }
}

const language = (list: CommandList) => (list.language_code !== undefined ? { language_code: list.language_code } : {});
