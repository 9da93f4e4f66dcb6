import * as intro from "../messages/channel-intro.ts";
import * as replies from "../messages/decipher-replies.ts";
import * as home from "../messages/home-view.ts";
import { withWords } from "../messages/kind-words.ts";
import * as notices from "../messages/notices.ts";
import { KIND_WORDS } from "./kinds.ts";

/*
 * The message builders that show subscriptions of every kind, with each kind's words given
 * (src/messages/kind-words.ts): what handlers and objects call.
 */
export const listMessage = withWords(replies.listMessage, KIND_WORDS);
export const statusMessage = withWords(replies.statusMessage, KIND_WORDS);
export const subscribedMessage = withWords(replies.subscribedMessage, KIND_WORDS);
export const unsubscribedMessage = withWords(replies.unsubscribedMessage, KIND_WORDS);
export const channelIntroMessage = withWords(intro.channelIntroMessage, KIND_WORDS);
export const homeView = withWords(home.homeView, KIND_WORDS);
export const subscriptionLine = withWords(home.subscriptionLine, KIND_WORDS);
export const noticeMessage = withWords(notices.noticeMessage, KIND_WORDS);
