"""The village's life on the game thread: plans walked, sleep, meetings, boards and news
passed on (`life`), news in the NPCs' mouths (`news`), what moves a feeling (`feelings`)."""
