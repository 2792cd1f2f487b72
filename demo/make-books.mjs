// Writes demo/public/data/books.json: a catalogue of a few hundred books for the demo, made from a fixed
// list of authors and title words so that every run writes the same file. Titles include the
// awkward characters the demo exists to show: spaces, `+`, `&`, `%`, accents and CJK.
import { writeFileSync } from 'node:fs';

const authors = [
  ['victor-hugo', 'Victor Hugo', 'France'],
  ['alexandre-dumas', 'Alexandre Dumas', 'France'],
  ['jules-verne', 'Jules Verne', 'France'],
  ['emile-zola', 'Émile Zola', 'France'],
  ['gustave-flaubert', 'Gustave Flaubert', 'France'],
  ['honore-de-balzac', 'Honoré de Balzac', 'France'],
  ['natsume-soseki', '夏目漱石 (Natsume Sōseki)', 'Japan'],
  ['murasaki-shikibu', '紫式部 (Murasaki Shikibu)', 'Japan'],
  ['akutagawa', '芥川龍之介 (Akutagawa Ryūnosuke)', 'Japan'],
  ['bjarne-stroustrup', 'Bjarne Stroustrup', 'Denmark'],
  ['brian-kernighan', 'Brian Kernighan', 'Canada'],
  ['donald-knuth', 'Donald Knuth', 'USA'],
  ['jane-austen', 'Jane Austen', 'England'],
  ['charles-dickens', 'Charles Dickens', 'England'],
  ['mary-shelley', 'Mary Shelley', 'England'],
  ['leo-tolstoy', 'Лев Толстой (Leo Tolstoy)', 'Russia'],
  ['fyodor-dostoevsky', 'Фёдор Достоевский (Fyodor Dostoevsky)', 'Russia'],
  ['miguel-de-cervantes', 'Miguel de Cervantes', 'Spain'],
  ['gabriel-garcia-marquez', 'Gabriel García Márquez', 'Colombia'],
  ['johann-wolfgang-goethe', 'Johann Wolfgang von Goethe', 'Germany'],
  ['franz-kafka', 'Franz Kafka', 'Bohemia'],
  ['dante-alighieri', 'Dante Alighieri', 'Italy'],
];
const classics = [
  ['Les Misérables', 'victor-hugo', 1862],
  ['Notre-Dame de Paris', 'victor-hugo', 1831],
  ['Le Comte de Monte-Cristo', 'alexandre-dumas', 1844],
  ['Les Trois Mousquetaires', 'alexandre-dumas', 1844],
  ['Vingt mille lieues sous les mers', 'jules-verne', 1870],
  ['Le Tour du monde en quatre-vingts jours', 'jules-verne', 1872],
  ['Germinal', 'emile-zola', 1885],
  ['Madame Bovary', 'gustave-flaubert', 1857],
  ['Le Père Goriot', 'honore-de-balzac', 1835],
  ['吾輩は猫である', 'natsume-soseki', 1905],
  ['こころ', 'natsume-soseki', 1914],
  ['源氏物語', 'murasaki-shikibu', 1008],
  ['羅生門', 'akutagawa', 1915],
  ['The C++ Programming Language', 'bjarne-stroustrup', 1985],
  ['A Tour of C++', 'bjarne-stroustrup', 2013],
  ['The C Programming Language', 'brian-kernighan', 1978],
  ['The Art of Computer Programming', 'donald-knuth', 1968],
  ['Pride & Prejudice', 'jane-austen', 1813],
  ['Sense & Sensibility', 'jane-austen', 1811],
  ['Great Expectations', 'charles-dickens', 1861],
  ['A Tale of Two Cities', 'charles-dickens', 1859],
  ['Frankenstein', 'mary-shelley', 1818],
  ['Война и мир', 'leo-tolstoy', 1869],
  ['Анна Каренина', 'leo-tolstoy', 1878],
  ['Преступление и наказание', 'fyodor-dostoevsky', 1866],
  ['Don Quijote de la Mancha', 'miguel-de-cervantes', 1605],
  ['Cien años de soledad', 'gabriel-garcia-marquez', 1967],
  ['Faust', 'johann-wolfgang-goethe', 1808],
  ['Die Verwandlung', 'franz-kafka', 1915],
  ['La Divina Commedia', 'dante-alighieri', 1320],
  ['100% Pure C++ & Friends', 'bjarne-stroustrup', 2020],
];
const words = ['Notes', 'Letters', 'Stories', 'Essays', 'Poems', 'Journeys', 'Sketches', 'Fragments', 'Dialogues', 'Chronicles'];
const themes = [
  'the Sea',
  'Paris',
  'Winter',
  'the Mountains',
  'Memory',
  'the City',
  'Time',
  'Night',
  'the River',
  'Exile',
  'C++ Templates',
  '東京',
];

const books = classics.map(([title, author, year], i) => ({ id: String(i + 1), title, author, year }));
for (let i = 0; books.length < 200; i++) {
  const author = authors[i % authors.length][0];
  const title = `${words[i % words.length]} on ${themes[(i * 7) % themes.length]}${i % 9 === 0 ? ' + Appendix' : ''}${i % 13 === 0 ? ', Vol. ' + ((i % 4) + 1) : ''}`;
  books.push({ id: String(books.length + 1), title, author, year: 1800 + ((i * 37) % 220) });
}
const data = { authors: authors.map(([slug, name, country]) => ({ slug, name, country })), books };
writeFileSync(new URL('./public/data/books.json', import.meta.url), JSON.stringify(data, null, 1) + '\n');
console.log(`wrote ${books.length} books by ${authors.length} authors`);
