// The app's data. A real app fetches it; here it is a constant, so the server and the browser
// agree on it without a database.

/** A book as the book route's `load` gives it. */
export interface Book {
  id: string;
  title: string;
  author: string;
}

const BOOKS: readonly Book[] = [
  { id: '1', title: 'Dune', author: 'Frank Herbert' },
  { id: '2', title: 'Emma', author: 'Jane Austen' },
];

/** Every book's id, for the book route's `entries()` (the sitemap). */
export const bookIds = (): string[] => BOOKS.map((book) => book.id);

/** The book with `id`, or undefined. */
export async function getBook(id: string, signal?: AbortSignal): Promise<Book | undefined> {
  signal?.throwIfAborted();
  return BOOKS.find((book) => book.id === id);
}
