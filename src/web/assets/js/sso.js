// Single sign-on: the page that hands the browser to the identity provider follows its
// link at once (docs/teams.md, "Single sign-on"); without scripts the link is clicked.
const link = document.querySelector('[data-sso-continue]');
if (link) window.location.replace(link.href);
