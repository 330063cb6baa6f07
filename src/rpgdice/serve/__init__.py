"""``rpgdice serve``: the table's live page, its JSON and its event stream, and the rolls
posted to a Discord channel. Loaded by that command alone (Starlette and uvicorn are the
optional extra ``rpgdice[serve]``): no roll imports anything of it."""
