"""The persona brain (`--provider scripted`, and every provider's fallback): the plan
(`persona`), the answer to the player (`talk`) and the lines it says (`lines`,
`first_person`, `retell`)."""
