// Builds the page's repeated pieces as DOM nodes: a chat list entry and a message bubble (its text
// rendered from entities by render-text.js). No state: app.js owns the chats and calls these.
'use strict';

(() => {
  function initial(name) {
    return (Array.from(name.trim())[0] || '?').toUpperCase();
  }

  function formatTime(unixSeconds) {
    return new Date(unixSeconds * 1000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  }

  function lastMessage(chat) {
    let last = null;
    for (const message of chat.messages.values()) if (!last || message.message_id > last.message_id) last = message;
    return last;
  }

  /** One entry of the chat list: avatar, name, last message (or a rule warning) and the unread count. */
  function chatItem(peer, chat, { current, broken, onOpen }) {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'chat-button';
    button.dataset.peer = peer.username;
    button.setAttribute('aria-current', String(current));
    const avatar = document.createElement('span');
    avatar.className = `avatar ${peer.kind}`;
    avatar.setAttribute('aria-hidden', 'true');
    avatar.textContent = initial(peer.name);
    const text = document.createElement('span');
    text.className = 'chat-text';
    const name = document.createElement('span');
    name.className = 'chat-name';
    name.textContent = peer.name;
    const preview = document.createElement('span');
    preview.className = 'chat-preview';
    const last = lastMessage(chat);
    preview.textContent = broken ? '⚠ rules have problems' : last ? last.text || '' : `@${peer.username}`;
    if (broken) preview.classList.add('warning');
    text.append(name, preview);
    const unread = document.createElement('span');
    unread.className = 'unread';
    unread.textContent = chat.unread > 0 ? String(chat.unread) : '';
    if (chat.unread > 0) unread.setAttribute('aria-label', `${chat.unread} unread`);
    button.append(avatar, text, unread);
    button.addEventListener('click', onOpen);
    item.append(button);
    return item;
  }

  /** A message bubble: own messages on the right, the other side's on the left, with quote, time and buttons. */
  function messageElement(message, textActions, onPress) {
    const own = !message.from || !message.from.is_bot;
    const item = document.createElement('li');
    item.className = `bubble ${own ? 'own' : 'theirs'}`;
    item.dataset.messageId = String(message.message_id);
    if (message.reply_to_message && message.reply_to_message.text) {
      const quote = document.createElement('div');
      quote.className = 'quote';
      quote.textContent = message.reply_to_message.text;
      item.append(quote);
    }
    const text = document.createElement('p');
    text.className = 'text';
    text.append(window.hearsayRenderText(message.text || '', message.entities, textActions));
    const time = document.createElement('time');
    time.dateTime = new Date(message.date * 1000).toISOString();
    time.textContent = formatTime(message.date);
    const sender = document.createElement('span');
    sender.className = 'visually-hidden';
    sender.textContent = own ? 'You: ' : `${message.from.first_name}: `;
    item.append(sender, text, time);
    if (message.edit_date) {
      const edited = document.createElement('span');
      edited.className = 'edited';
      edited.textContent = 'edited';
      time.prepend(edited);
    }
    const keyboard = window.hearsayChatControls.inlineKeyboard(message, onPress);
    if (keyboard) item.append(keyboard);
    return item;
  }

  /** The banner over the chat that names each problem of the bot's rules (hidden when there are none). */
  function renderRulesBanner(problems) {
    document.getElementById('rules-banner').hidden = problems.length === 0;
    document.getElementById('rules-problems').replaceChildren(
      ...problems.map((problem) => {
        const item = document.createElement('li');
        const where = document.createElement('code');
        where.textContent = problem.where;
        item.append(where, `: ${problem.message}`);
        return item;
      }),
    );
  }

  window.hearsayChatView = { chatItem, messageElement, initial, lastMessage, renderRulesBanner };
})();
