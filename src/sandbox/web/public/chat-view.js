// Builds the page's repeated pieces as DOM nodes: a chat list entry and a message bubble (its media by
// media-view.js, its text or caption rendered from entities by render-text.js) or a group's service line (a member joined or left). No state: app.js owns the chats and calls these.
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
    const idle = peer.kind === 'group' ? (peer.member ? 'group' : 'group · join to post') : `@${peer.username}`;
    const said = last ? last.text || window.hearsayMediaView.mediaPreview(last) || serviceText(last) || '' : idle;
    preview.textContent = broken ? '⚠ rules have problems' : said;
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

  /** What a service message says (a member joined or left, a forum topic created or closed…), or null for an ordinary message. */
  function serviceText(message) {
    if (message.new_chat_members) return `${message.new_chat_members.map((member) => member.first_name).join(', ')} joined the group`;
    if (message.left_chat_member) return `${message.left_chat_member.first_name} left the group`;
    return window.hearsayForum.serviceText(message);
  }

  /**
   * A message bubble: own messages (sent by `selfId`) on the right, the others' on the left, with quote, time and
   * buttons; in a group (`group`) the others' carry their sender's name. A service message is a centred line.
   */
  function messageElement(message, textActions, onPress, { selfId, group, fileUrl } = {}) {
    const service = serviceText(message);
    if (service) {
      const line = document.createElement('li');
      line.className = 'service';
      line.dataset.messageId = String(message.message_id);
      line.textContent = service;
      return line;
    }
    const own = !message.from || (selfId === undefined ? !message.from.is_bot : message.from.id === selfId);
    const item = document.createElement('li');
    item.className = `bubble ${own ? 'own' : 'theirs'}`;
    item.dataset.messageId = String(message.message_id);
    if (message.reply_to_message && message.reply_to_message.text) {
      const quote = document.createElement('div');
      quote.className = 'quote';
      quote.textContent = message.reply_to_message.text;
      item.append(quote);
    }
    const media = fileUrl ? window.hearsayMediaView.mediaElement(message, fileUrl) : null;
    if (media) item.append(media);
    if (message.media_group_id) item.classList.add('in-album');
    // A photo's or a file's caption shows where a text would, with its own formatting.
    const text = document.createElement('p');
    text.className = 'text';
    const caption = message.text === undefined && message.caption !== undefined;
    text.append(window.hearsayRenderText(caption ? message.caption : message.text || '', caption ? message.caption_entities : message.entities, textActions));
    const time = document.createElement('time');
    time.dateTime = new Date(message.date * 1000).toISOString();
    time.textContent = formatTime(message.date);
    const sender = document.createElement('span');
    sender.className = group && !own ? 'sender' : 'visually-hidden';
    sender.textContent = own ? 'You: ' : group ? message.from.first_name : `${message.from.first_name}: `;
    item.append(sender, text, time);
    if (message.edit_date) {
      const edited = document.createElement('span');
      edited.className = 'edited';
      edited.textContent = 'edited';
      time.prepend(edited);
    }
    const keyboard = window.hearsayChatControls.inlineKeyboard(message, onPress);
    if (keyboard) item.append(keyboard);
    if (message.why && Array.isArray(message.why.lines)) item.append(whyDisclosure(message.why.lines));
    return item;
  }

  /** A small "why?" under an answer (or under a message nothing answered): what hearsay says decided it, line by line. */
  function whyDisclosure(lines) {
    const details = document.createElement('details');
    details.className = 'why';
    const summary = document.createElement('summary');
    summary.textContent = 'why?';
    const list = document.createElement('ul');
    for (const line of lines) {
      const item = document.createElement('li');
      item.textContent = String(line);
      list.append(item);
    }
    details.append(summary, list);
    return details;
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

  window.hearsayChatView = { chatItem, messageElement, serviceText, initial, lastMessage, renderRulesBanner };
})();
