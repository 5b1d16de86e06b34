import { MyConversations } from '../features/chat/components/my-conversations.tsx';
import { ExplorePage } from '../features/universities/components/explore-page.tsx';

/** Explore Universities with the student's conversations with universities above the search. */
export function Explore() {
  return <ExplorePage conversations={<MyConversations />} />;
}
