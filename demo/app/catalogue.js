// The catalogue's data, fetched once per page (a failed fetch is tried again on the next load).
export function catalogue(url) {
  let cached;
  return () =>
    (cached ??= fetch(url)
      .then((response) => (response.ok ? response.json() : Promise.reject(new Error(`${url} answered ${response.status}`))))
      .catch((error) => {
        cached = undefined;
        throw error;
      }));
}
