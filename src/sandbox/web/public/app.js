// The sandbox chat page: keeps the user's identity, shows the chat list and one chat, sends through
// POST /client/send and receives everything pushed on GET /client/events (Server-Sent Events); no polling.
// Every text from the server is inserted with textContent: messages are user input.
'use strict';

(() => {
  const ASSISTANT = 'BotMaker';
  const STORAGE_KEY = 'hearsay.sandbox.user';
  const $ = (id) => document.getElementById(id);
  const ui = {
    meName: $('me-name'),
    rename: $('rename'),
    chatList: $('chat-list'),
    peerAvatar: $('peer-avatar'),
    peerTitle: $('peer-title'),
    peerSub: $('peer-sub'),
    connection: $('connection'),
    messages: $('messages'),
    composer: $('composer'),
    text: $('text'),
    send: $('send'),
    sendError: $('send-error'),
    nameDialog: $('name-dialog'),
    nameForm: $('name-form'),
    nameInput: $('name-input'),
  };

  /** username (lower case) → { peer, messages: Map<message_id, message>, unread, loaded } */
  const chats = new Map();
  let peers = [{ username: ASSISTANT, name: ASSISTANT, kind: 'assistant', mine: false }];
  let current = ASSISTANT;
  let user = null;

  // Identity: ?user=ID&name=NAME wins; otherwise the id kept in localStorage, created on the first visit.
  function readIdentity() {
    const query = new URLSearchParams(location.search);
    const queryId = Number(query.get('user'));
    if (Number.isSafeInteger(queryId) && queryId > 0) return { id: queryId, name: query.get('name') || 'You', fromQuery: true };
    try {
      const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) || 'null');
      if (saved && Number.isSafeInteger(saved.id) && saved.id > 0 && typeof saved.name === 'string') return saved;
    } catch (error) {
      // A damaged entry is replaced below.
    }
    return null;
  }

  function saveIdentity(identity) {
    if (!identity.fromQuery) localStorage.setItem(STORAGE_KEY, JSON.stringify({ id: identity.id, name: identity.name }));
  }

  function askName(initial) {
    ui.nameInput.value = initial;
    ui.nameDialog.showModal();
    ui.nameInput.select();
    return new Promise((resolve) => {
      ui.nameForm.addEventListener('submit', () => resolve(ui.nameInput.value.trim().slice(0, 64) || 'You'), { once: true });
    });
  }

  function chatOf(username) {
    const key = username.toLowerCase();
    let chat = chats.get(key);
    if (!chat) {
      chat = { messages: new Map(), unread: 0, loaded: false };
      chats.set(key, chat);
    }
    return chat;
  }

  function peerOf(username) {
    return peers.find((peer) => peer.username.toLowerCase() === username.toLowerCase());
  }

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

  function renderChatList() {
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.peer : undefined;
    const items = peers.map((peer) => {
      const chat = chatOf(peer.username);
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'chat-button';
      button.dataset.peer = peer.username;
      button.setAttribute('aria-current', String(peer.username.toLowerCase() === current.toLowerCase()));
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
      preview.textContent = last ? last.text || '' : `@${peer.username}`;
      text.append(name, preview);
      const unread = document.createElement('span');
      unread.className = 'unread';
      unread.textContent = chat.unread > 0 ? String(chat.unread) : '';
      if (chat.unread > 0) unread.setAttribute('aria-label', `${chat.unread} unread`);
      button.append(avatar, text, unread);
      button.addEventListener('click', () => openChat(peer.username));
      item.append(button);
      return item;
    });
    ui.chatList.replaceChildren(...items);
    if (focused) {
      const again = ui.chatList.querySelector(`button[data-peer="${CSS.escape(focused)}"]`);
      if (again) again.focus();
    }
  }

  function messageElement(message) {
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
    text.textContent = message.text || '';
    const time = document.createElement('time');
    time.dateTime = new Date(message.date * 1000).toISOString();
    time.textContent = formatTime(message.date);
    const sender = document.createElement('span');
    sender.className = 'visually-hidden';
    sender.textContent = own ? 'You: ' : `${message.from.first_name}: `;
    item.append(sender, text, time);
    return item;
  }

  function renderConversation() {
    const peer = peerOf(current) || { username: current, name: current, kind: 'bot' };
    ui.peerTitle.textContent = peer.name;
    ui.peerSub.textContent = peer.kind === 'assistant' ? 'creates and manages bots' : `@${peer.username}${peer.mine ? ' · your bot' : ''}`;
    ui.peerAvatar.textContent = initial(peer.name);
    ui.peerAvatar.className = `avatar ${peer.kind}`;
    const chat = chatOf(current);
    const sorted = [...chat.messages.values()].sort((a, b) => a.message_id - b.message_id);
    if (sorted.length === 0) {
      const empty = document.createElement('li');
      empty.className = 'empty';
      empty.textContent = peer.kind === 'assistant' ? 'Send /newbot to create a bot.' : 'No messages yet. Send /start.';
      ui.messages.replaceChildren(empty);
    } else {
      ui.messages.replaceChildren(...sorted.map(messageElement));
    }
    ui.messages.scrollTop = ui.messages.scrollHeight;
  }

  // A message for the open chat is appended in place, so screen readers announce only the new one.
  function addMessage(peerUsername, message) {
    const chat = chatOf(peerUsername);
    if (chat.messages.has(message.message_id)) return;
    chat.messages.set(message.message_id, message);
    const isCurrent = peerUsername.toLowerCase() === current.toLowerCase();
    if (!isCurrent) {
      if (message.from && message.from.is_bot) chat.unread += 1;
    } else {
      const empty = ui.messages.querySelector('.empty');
      if (empty) empty.remove();
      const newer = [...ui.messages.children].find((child) => Number(child.dataset.messageId) > message.message_id);
      const element = messageElement(message);
      if (newer) ui.messages.insertBefore(element, newer);
      else ui.messages.append(element);
      ui.messages.scrollTop = ui.messages.scrollHeight;
    }
    renderChatList();
  }

  async function loadHistory(username) {
    const query = new URLSearchParams({ user: String(user.id), with: username });
    const response = await fetch(`/client/messages?${query}`);
    const envelope = await response.json();
    if (!envelope.ok) return;
    const chat = chatOf(username);
    chat.loaded = true;
    for (const message of envelope.result) chat.messages.set(message.message_id, message);
    if (username.toLowerCase() === current.toLowerCase()) renderConversation();
    renderChatList();
  }

  function openChat(username) {
    current = username;
    const chat = chatOf(username);
    chat.unread = 0;
    ui.sendError.textContent = '';
    renderChatList();
    renderConversation();
    if (!chat.loaded) void loadHistory(username);
    ui.text.focus();
  }

  async function send(text) {
    ui.send.disabled = true;
    ui.sendError.textContent = '';
    try {
      const response = await fetch('/client/send', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user: { id: user.id, first_name: user.name }, to: current, text }),
      });
      const envelope = await response.json();
      if (!envelope.ok) throw new Error(envelope.description || `HTTP ${response.status}`);
      ui.text.value = '';
    } catch (error) {
      ui.sendError.textContent = `Not sent: ${error.message}`;
    } finally {
      ui.send.disabled = false;
      ui.text.focus();
    }
  }

  function connect() {
    const events = new EventSource(`/client/events?user=${encodeURIComponent(String(user.id))}`);
    events.addEventListener('open', () => {
      ui.connection.textContent = 'live';
      ui.connection.className = 'connection live';
      // After a reconnect, fetch what arrived while the stream was down (duplicates are ignored).
      for (const [key, chat] of chats) if (chat.loaded) void loadHistory(peerOf(key) ? peerOf(key).username : key);
    });
    events.addEventListener('error', () => {
      ui.connection.textContent = 'reconnecting…';
      ui.connection.className = 'connection down';
    });
    events.addEventListener('bots', (event) => {
      peers = JSON.parse(event.data).bots;
      renderChatList();
      if (peerOf(current)) renderConversationHeaderOnly();
    });
    events.addEventListener('message', (event) => {
      const data = JSON.parse(event.data);
      addMessage(data.peer, data.message);
    });
  }

  function renderConversationHeaderOnly() {
    const peer = peerOf(current);
    ui.peerTitle.textContent = peer.name;
    ui.peerSub.textContent = peer.kind === 'assistant' ? 'creates and manages bots' : `@${peer.username}${peer.mine ? ' · your bot' : ''}`;
  }

  ui.composer.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = ui.text.value;
    if (text.trim() !== '') void send(text);
  });
  ui.text.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      ui.composer.requestSubmit();
    }
  });
  ui.rename.addEventListener('click', async () => {
    user.name = await askName(user.name);
    ui.meName.textContent = user.name;
    saveIdentity(user);
  });

  async function start() {
    user = readIdentity();
    if (!user) {
      const name = await askName('You');
      user = { id: 100000 + Math.floor(Math.random() * 2000000000), name };
      saveIdentity(user);
    }
    ui.meName.textContent = user.name;
    connect();
    openChat(ASSISTANT);
  }

  void start();
})();
