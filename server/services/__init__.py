"""The service layer between the routes (`server.api`) and the rules core (`server.rules`): the command
path, the lobby, accounts, views and the computer's seat. It imports no route."""
