// A forum group (a supergroup with topics) in the chat page: opening it shows its topics (General first, then
// each topic with its last message; a closed one says so), opening a topic shows only that topic's messages and
// the composer writes in it. A member who is staff of a hand-off answers a customer here, in the customer's topic.
// The topics come from GET /client/topics and are read again when a topic is created, renamed, closed or
// reopened. Built from DOM nodes and textContent only; app.js owns the chats and asks this module what to show.
'use strict';

(() => {
  /** The page's id of the General topic (its messages carry no message_thread_id). */
  const GENERAL = 0;
  /** group chat id (text) → the topics as the client API lists them: [{ message_thread_id, name, closed }] */
  const topicsByChat = new Map();
  /** group chat id (text) → the topic open in it (GENERAL or a message_thread_id); absent: the topic list */
  const openTopics = new Map();

  function isForum(peer) {
    return Boolean(peer && peer.kind === 'group' && peer.forum);
  }

  /** The topic open in the forum `key` (GENERAL or a thread id), or null while its topic list shows. */
  function openTopic(key) {
    return openTopics.has(key) ? openTopics.get(key) : null;
  }

  function setOpenTopic(key, topic) {
    if (topic === null) openTopics.delete(key);
    else openTopics.set(key, topic);
  }

  /** The topic a message belongs to: its thread, or General. */
  function topicOfMessage(message) {
    return message.is_topic_message && message.message_thread_id ? message.message_thread_id : GENERAL;
  }

  function topicsOf(key) {
    return topicsByChat.get(key) || [];
  }

  /** The open topic's name and whether it is closed ({ name: 'General' } for General). */
  function topicInfo(key, topic) {
    if (topic === GENERAL) return { name: 'General', closed: false };
    const found = topicsOf(key).find((item) => item.message_thread_id === topic);
    return found ? { name: found.name, closed: found.closed } : { name: 'Topic', closed: false };
  }

  /** Reads the forum's topics as `userId` (a member); resolves to whether they could be read. */
  async function loadTopics(userId, chatId) {
    const query = new URLSearchParams({ user: String(userId), chat: String(chatId) });
    const envelope = await (await fetch(`/client/topics?${query}`)).json();
    if (!envelope.ok) return false;
    topicsByChat.set(String(chatId), envelope.result);
    return true;
  }

  /** Whether a message changes the topic list (a topic created, edited, closed or reopened). */
  function changesTopics(message) {
    return Boolean(message.forum_topic_created || message.forum_topic_edited || message.forum_topic_closed || message.forum_topic_reopened);
  }

  /** What a forum service message says, or null for any other message. */
  function serviceText(message) {
    if (message.forum_topic_created) return `Topic “${message.forum_topic_created.name}” created`;
    if (message.forum_topic_edited) return message.forum_topic_edited.name ? `Topic renamed to “${message.forum_topic_edited.name}”` : 'Topic icon changed';
    if (message.forum_topic_closed) return 'Topic closed';
    if (message.forum_topic_reopened) return 'Topic reopened';
    return null;
  }

  function lastIn(messages, topic) {
    let last = null;
    for (const message of messages.values()) if (topicOfMessage(message) === topic && (!last || message.message_id > last.message_id)) last = message;
    return last;
  }

  /** One entry of the topic list: its name, "closed" when it is, and its last message. */
  function topicItem(topic, last, onOpen) {
    const item = document.createElement('li');
    item.className = 'topic';
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'topic-button';
    button.dataset.topic = String(topic.message_thread_id);
    const name = document.createElement('span');
    name.className = 'topic-name';
    name.textContent = topic.name;
    if (topic.closed) {
      const closed = document.createElement('span');
      closed.className = 'topic-closed';
      closed.textContent = 'closed';
      name.append(' ', closed);
    }
    const preview = document.createElement('span');
    preview.className = 'topic-preview';
    const view = window.hearsayChatView;
    preview.textContent = last
      ? `${last.from ? `${last.from.first_name}: ` : ''}${last.text || last.caption || window.hearsayMediaView.mediaPreview(last) || view.serviceText(last) || ''}`
      : 'No messages yet.';
    button.append(name, preview);
    button.addEventListener('click', () => onOpen(topic.message_thread_id));
    item.append(button);
    return item;
  }

  /** The forum's topic list as list items: General, then each topic, the newest activity first. */
  function topicList(key, messages, onOpen) {
    const general = { message_thread_id: GENERAL, name: 'General', closed: false };
    const activity = (topic) => {
      const last = lastIn(messages, topic.message_thread_id);
      return last ? last.message_id : topic.message_thread_id;
    };
    const topics = [...topicsOf(key)].sort((a, b) => activity(b) - activity(a));
    return [general, ...topics].map((topic) => topicItem(topic, lastIn(messages, topic.message_thread_id), onOpen));
  }

  window.hearsayForum = { GENERAL, isForum, openTopic, setOpenTopic, topicOfMessage, topicInfo, loadTopics, changesTopics, serviceText, topicList };
})();
