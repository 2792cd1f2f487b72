// The book page's markup, shared by the app (main.js, in the page) and the bench's render hook, so
// both snapshots show the same page.
const escape = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function bookTitle(book) {
  return `${book.title} by ${book.author}`;
}

export function bookView(id, book) {
  const chapters = book.chapters.map((c) => `<li>${escape(c)}</li>`).join('');
  return `<article><h1>${escape(book.title)}</h1><p>by ${escape(book.author)}</p><ol>${chapters}</ol><a href="/books/${Number(id) + 1}">next</a></article>`;
}
