// The client app: draws the book page from the data, then signals that it has settled (the
// contract the router keeps: data-router-state and the crawlable-router:settled event).
import { bookTitle, bookView } from './view.js';

const root = document.documentElement;
root.dataset.routerState = 'busy';
const id = location.pathname.split('/')[2];
const books = await (await fetch('/data/books.json')).json();
document.title = bookTitle(books[id]);
document.getElementById('app').innerHTML = bookView(id, books[id]);
root.dataset.routerState = 'settled';
window.dispatchEvent(new CustomEvent('crawlable-router:settled', { detail: { location: location.pathname } }));
