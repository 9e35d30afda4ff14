// The rules of a bot that remembers a user's name and greets them by it, shared by the example bots of the conversation tests.

/** Three rules (`remember-name`, `greet-known`, `greet`) as items of a `rules:` list, to be placed right under it. */
export const NAME_MEMORY_RULES = `  - id: remember-name
    pattern: '^my name is (?<name>\\p{L}+)'
    set: { user.name: "{{match.name}}" }
    reply: "Nice to meet you, {{match.name}}!"
  - id: greet-known
    text: hi
    when: { user.name: { exists: true } }
    reply: "Hi again, {{var.user.name}}!"
  - id: greet
    text: hi
    reply: "Hi! Who are you?"
`;
