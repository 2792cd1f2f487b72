// The views: React components the outlet draws with their route's props, on the server
// (crawlable-router/react/server) and in the browser, which hydrates what the server drew.
import { useState } from 'react';
import { Link, type ViewProps } from 'crawlable-router/react';
import type { Book } from './books';

export function Home() {
  return (
    <main>
      <h1>Books</h1>
      <ul>
        <li>
          <Link to="book" params={{ id: '1' }}>
            Dune
          </Link>
        </li>
        <li>
          <Link to="book" params={{ id: '2' }}>
            Emma
          </Link>
        </li>
      </ul>
      <Link to="about">About</Link>
    </main>
  );
}

export function BookPage({ data }: ViewProps<{ id: string }, Book>) {
  // State of its own: a live React tree once hydrated.
  const [liked, setLiked] = useState(false);
  return (
    <article>
      <h1>{data.title}</h1>
      <p>by {data.author}</p>
      <button type="button" onClick={() => setLiked(!liked)}>
        {liked ? 'Liked' : 'Like'}
      </button>
      <Link to="home">All books</Link>
    </article>
  );
}

export function About() {
  return (
    <main>
      <h1>About</h1>
      <p>An example of crawlable-router with React and Vite.</p>
      <Link to="home">All books</Link>
    </main>
  );
}

export function NotFound({ location }: ViewProps) {
  return (
    <main>
      <h1>Nothing at {location}</h1>
      <Link to="home">All books</Link>
    </main>
  );
}
