import SophonCore

print("sophon")
