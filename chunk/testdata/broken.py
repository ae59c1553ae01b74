def ok():
    return 1

def bad(:
    return (

class After:
    def m(self):
        pass
